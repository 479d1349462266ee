import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** Serves `GET /metrics` from a registry on its own port (workers have no other HTTP server). */
export function serveMetrics(registry: Registry, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
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
    server.listen(port, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
