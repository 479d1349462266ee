import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { Readiness } from "./metrics.ts";

/**
 * Serves `GET /metrics` from a registry on its own port. With `readiness`, also `GET /healthz` (the
 * process serves: liveness) and `GET /readyz` (200 or 503 with the checks): the worker's probes, as it
 * has no other HTTP server.
 */
export function serveMetrics(
  registry: Registry,
  port: number,
  options: {
    readiness?: () => Readiness;
    /** The address to bind (`METRICS_HOST`); every interface when unset, as Prometheus scrapes from outside the pod. */
    host?: string;
  } = {},
): Promise<{ server: Server; port: number }> {
  const { readiness, host } = options;
  const server = createServer((req, res) => {
    if (readiness && req.method === "GET" && (req.url === "/healthz" || req.url === "/readyz")) {
      const state = req.url === "/healthz" ? { ready: true, checks: {} } : readiness();
      const status = req.url === "/healthz" ? "alive" : state.ready ? "ready" : "not ready";
      res.writeHead(state.ready ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify({ status, ...state.checks }));
      return;
    }
    if (req.method === "GET" && req.url === "/metrics") {
      registry
        .metrics()
        .then((text) => {
          res.writeHead(200, { "content-type": registry.contentType });
          res.end(text);
        })
        .catch(() => {
          res.writeHead(500);
          res.end();
        });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => {
    // A port already taken ends the process with one line naming it: a stack trace tells an
    // operator nothing, and a process that cannot serve its metrics must not run unwatched.
    server.once("error", (error: NodeJS.ErrnoException) => {
      const why = error.code === "EADDRINUSE" ? "is already in use" : `cannot be opened (${error.code})`;
      const where = host === undefined ? `port ${port}` : `address ${host}:${port}`;
      process.stderr.write(
        `metrics ${where} ${why}: set METRICS_PORT to a free port (0 picks one) or METRICS_HOST to an address of this host\n`,
      );
      process.exit(1);
    });
    server.listen({ port, host }, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
