import net from "node:net";

/** A loopback port nothing listens on right now (the OS picks it; a race is possible but rare). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Readiness by probe (a login, a PING, an HTTP `/ready`): resolves once `check` succeeds, retrying
 * every 100 ms; rejects with its last error after `timeoutMs`.
 */
export async function until(what: string, check: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      await check();
      return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms: ${String(last)}`);
}
