import net from "node:net";
import mysql from "mysql2/promise";
import type {} from "vitest";
import type { TestProject } from "vitest/node";
import { startStatementCapture } from "../packages/ledger/src/testing/general-log.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** MariaDB server URL without a database; each test file creates and drops its own. */
    mysqlServerUrl: string;
    redisUrl: string;
  }
}

export const mysqlServerUrl = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/";
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
  await dropAbandonedTestDatabases();
  // Every statement from here on is logged for the portability gate (packages/ledger/src/portability),
  // which `pnpm test` runs next; the server's logging is put back as it was when the tests end.
  const restoreLogging = await startStatementCapture(mysqlServerUrl);
  project.provide("mysqlServerUrl", mysqlServerUrl);
  project.provide("redisUrl", redisUrl);
  return restoreLogging;
}

/**
 * Databases of test runs that crashed before their cleanup: named test_<unix seconds>_…, over an hour
 * old; and their users, rt_/mg_/ad_<unix seconds>_… (packages/ledger/src/testing/test-users.ts).
 */
async function dropAbandonedTestDatabases() {
  const connection = await mysql.createConnection({ uri: mysqlServerUrl });
  try {
    const [rows] = await connection.query("SHOW DATABASES LIKE 'test\\_%'");
    const cutoff = Date.now() / 1000 - 3600;
    for (const row of rows as Array<Record<string, string>>) {
      const name = Object.values(row)[0] ?? "";
      const created = Number(/^test_(\d{10})_/.exec(name)?.[1]);
      if (created && created < cutoff) await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    }
    const [users] = await connection.query(
      "SELECT User AS user, Host AS host FROM mysql.user WHERE User LIKE 'rt\\_%' OR User LIKE 'mg\\_%' OR User LIKE 'ad\\_%'",
    );
    for (const { user, host } of users as Array<{ user: string; host: string }>) {
      const created = Number(/^(?:rt|mg|ad)_(\d{10})_/.exec(user)?.[1]);
      if (created && created < cutoff) await connection.query("DROP USER IF EXISTS ?@?", [user, host]);
    }
  } finally {
    await connection.end();
  }
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
