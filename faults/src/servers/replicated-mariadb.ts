import { until } from "@wallet/system-tests/harness/processes/readiness";
import type mysql from "mysql2/promise";
import type { Database } from "../harness/fault-system.ts";
import { FaultProxy } from "../proxy/fault-proxy.ts";
import { asRoot, MariaDbServer } from "./mariadb-server.ts";

export interface ReplicationOptions {
  /**
   * Lossless semi-synchronous replication (MariaDB's built-in semi-sync, wait point AFTER_SYNC): the
   * primary commits, and answers, only once the replica has the transaction in its relay log. Off:
   * plain asynchronous replication, as MariaDB and MySQL ship.
   */
  semiSync: boolean;
  /**
   * How long the primary waits for the replica's acknowledgement before it falls back to asynchronous
   * replication (rpl_semi_sync_master_timeout): the moment "nothing lost" stops holding.
   */
  semiSyncTimeoutMs?: number;
}

const replicationUser = { name: "replication", password: "faults-replication-7c21" };

/** Both servers' settings: GTIDs, row-based binary logs, and semi-sync able to run either way. */
const replicationArgs = (serverId: number, semiSync: boolean, timeoutMs: number) => [
  `--server-id=${serverId}`,
  "--log-bin=mariadb-bin",
  "--binlog-format=ROW",
  "--log-slave-updates=ON",
  "--sync-binlog=1",
  `--rpl-semi-sync-master-enabled=${semiSync ? "ON" : "OFF"}`,
  "--rpl-semi-sync-master-wait-point=AFTER_SYNC",
  `--rpl-semi-sync-master-timeout=${timeoutMs}`,
  `--rpl-semi-sync-slave-enabled=${semiSync ? "ON" : "OFF"}`,
];

/**
 * A primary and one replica of the suite's own, the replica read-only and reading the primary's binary
 * log through a fault proxy (`link`), so a test can make it lag (a black hole) as a slow or partitioned
 * network would. `promote` is what a failover tool (Orchestrator, MaxScale, MHA) does once the primary
 * is dead: let the replica apply everything it received, stop replication, make it writable.
 */
export class ReplicatedMariaDb implements Database {
  /** The primary the wallet started on (a failover's old primary). */
  readonly first: MariaDbServer;

  private constructor(
    public primary: MariaDbServer,
    readonly replica: MariaDbServer,
    /** The replica's connection to the primary's binary log. */
    readonly link: FaultProxy,
    readonly options: ReplicationOptions,
  ) {
    this.first = primary;
  }

  static async start(dir: string, options: ReplicationOptions): Promise<ReplicatedMariaDb> {
    const timeoutMs = options.semiSyncTimeoutMs ?? 10_000;
    const [primary, replica] = await Promise.all([
      MariaDbServer.start(`${dir}/primary`, { extraArgs: replicationArgs(1, options.semiSync, timeoutMs) }),
      MariaDbServer.start(`${dir}/replica`, {
        // Fenced as every replica is: only replication writes (the apps' users have no privilege past it).
        extraArgs: [...replicationArgs(2, options.semiSync, timeoutMs), "--read-only=ON"],
      }),
    ]);
    const link = await FaultProxy.start(primary.port);
    await asRoot(primary, async (connection) => {
      await connection.query(
        `CREATE USER '${replicationUser.name}'@'%' IDENTIFIED BY '${replicationUser.password}'`,
      );
      await connection.query(`GRANT REPLICATION SLAVE ON *.* TO '${replicationUser.name}'@'%'`);
    });
    await asRoot(replica, async (connection) => {
      // The replica's own setup (its users) is not the primary's history: it starts from none of its own.
      await connection.query("RESET MASTER");
      await connection.query(
        `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${link.port}, ` +
          `MASTER_USER='${replicationUser.name}', MASTER_PASSWORD='${replicationUser.password}', ` +
          "MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1",
      );
      await connection.query("START SLAVE");
    });
    const replicated = new ReplicatedMariaDb(primary, replica, link, options);
    await replicated.caughtUp();
    if (options.semiSync)
      await until(
        "semi-sync on",
        async () => {
          if ((await replicated.primaryStatus()).Rpl_semi_sync_master_status !== "ON")
            throw new Error("semi-sync not active yet");
        },
        30_000,
      );
    return replicated;
  }

  /** The primary's semi-sync counters (`Rpl_semi_sync_master_*`). */
  primaryStatus(): Promise<Record<string, string>> {
    return asRoot(this.primary, async (connection) => {
      const [rows] = await connection.query("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master%'");
      return Object.fromEntries(
        (rows as Array<{ Variable_name: string; Value: string }>).map((row) => [
          row.Variable_name,
          row.Value,
        ]),
      );
    });
  }

  /** Resolves once the replica has applied every transaction of the primary's binary log. */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const target = await asRoot(this.primary, async (connection) => gtid(connection, "@@gtid_binlog_pos"));
    await until(
      "replica caught up",
      async () => {
        const applied = await asRoot(this.replica, (connection) => gtid(connection, "@@gtid_slave_pos"));
        if (applied !== target) throw new Error(`replica at ${applied}, primary at ${target}`);
      },
      timeoutMs,
    );
  }

  /**
   * The replica becomes the primary. The old one is dead (or fenced), so the link is cut first; the
   * replica then applies all it received (its relay log: with semi-sync, every acknowledged commit),
   * stops replicating and takes writes. Returns the new primary.
   */
  async promote(): Promise<MariaDbServer> {
    // Cut before healing: bytes a partition held back must not reach the replica after the death.
    this.link.resetAll();
    this.link.setMode("pass");
    await asRoot(this.replica, async (connection) => {
      await connection.query("STOP SLAVE IO_THREAD");
      await until(
        "relay log applied",
        async () => {
          const [rows] = await connection.query("SHOW SLAVE STATUS");
          const status = (rows as Array<Record<string, unknown>>)[0];
          if (!status) return;
          const applied =
            status.Relay_Master_Log_File === status.Master_Log_File &&
            status.Exec_Master_Log_Pos === status.Read_Master_Log_Pos;
          if (!applied) throw new Error("the replica is still applying its relay log");
        },
        60_000,
      );
      await connection.query("STOP SLAVE");
      await connection.query("RESET SLAVE ALL");
      await connection.query("SET GLOBAL read_only = OFF");
    });
    this.primary = this.replica;
    return this.replica;
  }

  /** Both servers, whichever is the primary now. */
  get servers(): MariaDbServer[] {
    return [...new Set([this.primary, this.replica, this.first])];
  }

  async stop(): Promise<void> {
    await this.link.close();
    await Promise.all(this.servers.map((server) => server.stop()));
  }
}

async function gtid(connection: mysql.Connection, variable: string): Promise<string> {
  const [rows] = await connection.query(`SELECT ${variable} AS position`);
  return String((rows as Array<{ position: string }>)[0]?.position ?? "");
}
