import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SimStats } from "./engine/stats.ts";
import { sendCallback } from "./wallet-client.ts";

let server: Server;
let url = "";
let answers: number[] = [];
const seen: Array<{ at: number; signature: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ at: Date.now(), signature: req.headers["x-signature"] as string | undefined, body });
      const status = answers.shift() ?? 200;
      if (status === -1) return; // never answer: the client times out
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: status, message: "scripted" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answers = [];
  seen.length = 0;
});

const operator = () => ({ operatorId: 1, publicKey: "pk", secretKey: "secret-key-1", walletUrl: url });
const policy = { baseMs: 40, maxMs: 100, jitterMs: 10, attempts: 5, timeoutMs: 150 };

describe("the simulator's retry policy (contract: 5xx, timeouts and connection errors only)", () => {
  it("retries 5xx and timeouts with the same bytes and signature, backing off exponentially up to the cap", async () => {
    answers = [503, -1, 500, 200];
    const stats = new SimStats();
    const answer = await sendCallback(operator(), "/withdraw", { a: 1 }, policy, stats, "BET");
    expect([answer.status, answer.attempts]).toEqual([200, 4]);
    expect(new Set(seen.map((request) => `${request.signature}|${request.body}`)).size).toBe(1);
    const gaps = seen.slice(1).map((request, index) => request.at - (seen[index]?.at ?? 0));
    // 40 ms, then a timeout (150 ms) plus 80 ms, then 100 ms (the cap, not 160).
    expect(gaps[0]).toBeGreaterThanOrEqual(40);
    expect(gaps[1]).toBeGreaterThanOrEqual(150 + 80);
    expect(gaps[2]).toBeGreaterThanOrEqual(100);
    expect(gaps[2]).toBeLessThan(160 + 100);
    expect(stats.retries).toBe(3);
  });

  it("never retries a 4xx", async () => {
    for (const status of [400, 401, 402, 404, 409]) {
      seen.length = 0;
      answers = [status];
      const answer = await sendCallback(operator(), "/deposit", { a: status }, policy, new SimStats(), "WIN");
      expect([answer.status, answer.attempts, seen.length]).toEqual([status, 1, 1]);
    }
  });

  it("gives up after the configured attempts", async () => {
    answers = [503, 503, 503, 503, 503, 503];
    const answer = await sendCallback(operator(), "/deposit", {}, policy, new SimStats(), "WIN");
    expect([answer.status, answer.attempts, seen.length]).toEqual([503, 5, 5]);
  });

  it("treats a refused connection as transient", async () => {
    const closed = { ...operator(), walletUrl: "http://127.0.0.1:9" };
    const answer = await sendCallback(
      closed,
      "/auth",
      {},
      { ...policy, attempts: 2 },
      new SimStats(),
      "/auth",
    );
    expect([answer.status, answer.attempts]).toEqual([0, 2]);
  });
});
