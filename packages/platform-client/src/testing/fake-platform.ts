import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP server standing in for the platform in the client's tests; each test scripts its answers. */
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  delayMs?: number;
  /** Never answer (the client must time out). */
  hang?: boolean;
}

export class FakePlatform {
  readonly requests: Array<{ path: string; query: URLSearchParams; publicKey: string | undefined }> = [];
  private script: ScriptedAnswer[] = [];
  private fallback: ScriptedAnswer = { status: 200, body: [] };
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next answers, in order; afterwards `always` answers everything. */
  queue(...answers: ScriptedAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  always(answer: ScriptedAnswer): this {
    this.fallback = answer;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.script = [];
    this.fallback = { status: 200, body: [] };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private answer(req: IncomingMessage, res: import("node:http").ServerResponse) {
    const url = new URL(req.url ?? "/", "http://x");
    this.requests.push({
      path: url.pathname,
      query: url.searchParams,
      publicKey: req.headers["x-public-key"] as string | undefined,
    });
    const scripted = this.script.shift() ?? this.fallback;
    if (scripted.hang) return;
    setTimeout(() => {
      res.writeHead(scripted.status, { "content-type": "application/json" });
      res.end(scripted.body === undefined ? "" : JSON.stringify(scripted.body));
    }, scripted.delayMs ?? 0);
  }
}
