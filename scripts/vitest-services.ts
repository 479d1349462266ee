import net from "node:net";
import type {} from "vitest";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** MariaDB server URL without a database; each test file creates and drops its own. */
    mysqlServerUrl: string;
    redisUrl: string;
  }
}

const mysqlServerUrl = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Fails fast, with the fix in the message, when a service the integration tests need is down. */
export default async function setup(project: TestProject) {
  for (const [name, url] of [
    ["MariaDB", mysqlServerUrl],
    ["Redis", redisUrl],
  ] as const) {
    const { hostname, port } = new URL(url);
    if (!(await reachable(hostname, Number(port)))) {
      throw new Error(
        `${name} is not reachable at ${hostname}:${port}; run \`bash scripts/services.sh\` (or \`pnpm test\`, which does)`,
      );
    }
  }
  project.provide("mysqlServerUrl", mysqlServerUrl);
  project.provide("redisUrl", redisUrl);
}

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
