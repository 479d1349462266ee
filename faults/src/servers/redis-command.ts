import { Redis } from "ioredis";

/** One command on one Redis node, on a connection of its own that never retries: for probes and checks. */
export async function redisCommand(port: number, name: string, ...args: string[]): Promise<unknown> {
  const client = new Redis(port, "127.0.0.1", {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return await client.call(name, ...args);
  } finally {
    client.disconnect();
  }
}
