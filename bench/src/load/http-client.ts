import http from "node:http";

export interface Answer {
  status: number;
  body: string;
}

/**
 * Keep-alive POSTs with node:http: a connection per in-flight request, reused, and far less CPU
 * than fetch. The load shares the 2 cores with the system under test, so its cost matters.
 */
export function httpPoster(base: string, sockets: number, timeoutMs: number) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const post = (path: string, body: string, headers: Record<string, string>): Promise<Answer> =>
    new Promise((resolve) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: "POST",
          agent,
          headers: {
            ...headers,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          response.on("error", () => resolve({ status: 0, body: "" }));
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", () => resolve({ status: 0, body: "" }));
      request.end(body);
    });
  return { post, close: () => agent.destroy() };
}
