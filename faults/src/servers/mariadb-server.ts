import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { userInfo } from "node:os";
import { promisify } from "node:util";
import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import { ServerProcess } from "@wallet/system-tests/harness/processes/server-process";
import mysql from "mysql2/promise";

const run = promisify(execFile);

/**
 * The OS user the server runs as: whoever runs the suite. mariadb-install-db chowns its data folder to
 * it, which only root may do for another user, so a user without root runs it as themselves.
 */
const serverUser = userInfo().username;

/** The suite's application user: a password of its own, so the secret-in-logs check has one to look for. */
export const dbUser = { name: "wallet", password: "faults-db-password-5d8e1c" };

/**
 * A MariaDB server of the suite's own: its own data directory and port, so SIGKILL, SIGSTOP and
 * restarts never touch the machine's server. Durable as in production (InnoDB flushes its log at
 * every commit), so a restart after SIGKILL is a real crash recovery.
 */
export class MariaDbServer {
  private constructor(
    private readonly process: ServerProcess,
    readonly port: number,
  ) {}

  /**
   * `extraArgs` go after the suite's own settings (the last of an option wins), for a caller that
   * needs another setup on the same footing: a binary log, a server id, other InnoDB sizes.
   * `restored`: `<dir>/mariadb` already holds a server's files (a backup copied back): it is started
   * as it is, with the users and data it holds, neither installed nor given users.
   * `firstStartArgs` go to the first launch only, never to a restart: a cluster's bootstrap
   * (`--wsrep-new-cluster`), which a restarted node must not repeat (it would start a second cluster).
   */
  static async start(
    dir: string,
    options: { extraArgs?: string[]; restored?: boolean; firstStartArgs?: string[] } = {},
  ): Promise<MariaDbServer> {
    const dataDir = `${dir}/mariadb`;
    await mkdir(dataDir, { recursive: true });
    if (!options.restored)
      await run("mariadb-install-db", [
        "--no-defaults",
        `--datadir=${dataDir}`,
        `--user=${serverUser}`,
        "--auth-root-authentication-method=normal",
        "--skip-test-db",
        // Its own temporary folder: bootstraps running side by side collided on /tmp's #sql files.
        `--tmpdir=${dir}`,
      ]);
    const port = await freePort();
    const server = new MariaDbServer(
      new ServerProcess(
        "mariadb",
        "/usr/sbin/mariadbd",
        [
          "--no-defaults",
          `--datadir=${dataDir}`,
          `--user=${serverUser}`,
          `--port=${port}`,
          "--bind-address=127.0.0.1",
          `--socket=${dir}/mariadb.sock`,
          `--tmpdir=${dir}`,
          `--pid-file=${dir}/mariadb.pid`,
          "--skip-log-bin",
          "--skip-name-resolve",
          "--innodb-buffer-pool-size=128M",
          "--innodb-flush-log-at-trx-commit=1",
          "--max-connections=500",
          `--log-error=${dir}/mariadb.err`,
          ...(options.extraArgs ?? []),
        ],
        `${dir}/mariadb.out`,
      ),
      port,
    );
    await server.restart(options.firstStartArgs);
    if (options.restored) return server;
    const root = await mysql.createConnection({ host: "127.0.0.1", port, user: "root" });
    try {
      await root.query(`CREATE USER IF NOT EXISTS '${dbUser.name}'@'%' IDENTIFIED BY '${dbUser.password}'`);
      // The suite's admin, as root is for `pnpm test`: it makes each test database's migrator and
      // runtime users (packages/ledger/src/testing/test-ledger.ts), hence GRANT OPTION.
      await root.query(`GRANT ALL PRIVILEGES ON *.* TO '${dbUser.name}'@'%' WITH GRANT OPTION`);
    } finally {
      await root.end();
    }
    return server;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** mysql://wallet:…@127.0.0.1:port/database, optionally through another port (a fault proxy). */
  url(database: string, port = this.port): string {
    return `mysql://${dbUser.name}:${dbUser.password}@127.0.0.1:${port}/${database}`;
  }

  /**
   * Starts the server (again, on the same data and port) and waits until it accepts logins.
   * `onceArgs` are added to this launch only.
   */
  async restart(onceArgs: string[] = []): Promise<void> {
    this.process.launch(onceArgs);
    await until(
      "MariaDB",
      async () => {
        const connection = await mysql.createConnection({ host: "127.0.0.1", port: this.port, user: "root" });
        await connection.end();
      },
      60_000,
    );
  }

  signal(signal: NodeJS.Signals): Promise<void> {
    return this.process.signal(signal);
  }

  stop(): Promise<void> {
    return this.process.signal("SIGKILL");
  }
}

/** Runs `work` on a root connection of `server`'s own (never through a proxy: the operator's view). */
export async function asRoot<T>(
  server: MariaDbServer,
  work: (connection: mysql.Connection) => Promise<T>,
): Promise<T> {
  const connection = await mysql.createConnection({ host: "127.0.0.1", port: server.port, user: "root" });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}
