import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

/**
 * Serves `app` on `port` at `host` (OPERATOR_API_HOST; every interface, IPv4 and IPv6, when
 * undefined), resolving once it listens, with the address it really got (port 0 picks one).
 */
export function listen(
  app: Express,
  port: number,
  host?: string,
): Promise<{ server: Server; address: AddressInfo }> {
  return new Promise((resolve, reject) => {
    const server = app.listen({ port, host });
    server.once("error", reject);
    server.once("listening", () => {
      server.off("error", reject);
      resolve({ server, address: server.address() as AddressInfo });
    });
  });
}
