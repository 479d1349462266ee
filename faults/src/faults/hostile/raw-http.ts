import http from "node:http";
import { sign } from "@wallet/contracts/hmac";
import { type TestTenant, testTenants } from "../../harness/fault-system.ts";

// Raw HTTP: node:http with a keep-alive agent, so headers and bytes go out exactly as built.

export interface RawRequest {
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** Sent with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** POSTs `request` to the gateway at `port` exactly as built; no answer in 15 s is an error. */
export function send(port: number, request: RawRequest, agent?: http.Agent): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: request.path,
        headers: request.headers,
        agent,
        timeout: 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("no answer in 15 s")));
    if (request.chunked) {
      // Several chunks, so the limit is found by counting, not from a header.
      for (let at = 0; at < request.body.length; at += 1_000)
        req.write(request.body.subarray(at, at + 1_000));
      req.end();
    } else req.end(request.body);
  });
}

/** The problem with an answer that is not the contract's envelope `{code, message}` with code = status. */
export function envelopeProblem(answer: RawAnswer): string | undefined {
  if (!answer.contentType.startsWith("application/json")) return `content-type ${answer.contentType}`;
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `not JSON: ${answer.text.slice(0, 80)}`;
  }
  const { code, message } = json as { code?: unknown; message?: unknown };
  if (code !== answer.status) return `code ${String(code)} but HTTP ${answer.status}`;
  if (typeof message !== "string" || message === "") return "no message";
  return undefined;
}

const [tenant1] = testTenants as [TestTenant];

/** The headers of a callback `tenant` (tenant 1 by default) signed over exactly these bytes. */
export function signedHeaders(body: Buffer | string, tenant = tenant1): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-public-key": tenant.publicKey,
    "x-signature": sign(body, tenant.secretKey),
  };
}
