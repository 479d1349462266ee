import { MariaDbServer } from "@wallet/faults/servers/mariadb-server";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { machineInnoDb, rootUrl, type Stoppable } from "./servers.ts";

/**
 * A primary with a durable binary log (ROW, sync_binlog=1) and one read-only replica of it, both
 * private MariaDB servers on the machine's InnoDB settings, each in a folder of its own under `dir`.
 * The replica phase measures what the binary log costs the primary and how far the replica lags.
 */
export class Replication {
  private constructor(
    readonly primary: MariaDbServer,
    readonly replica: MariaDbServer,
    /** Root on each: setting up replication needs GRANT, which the suite's `wallet` user lacks. */
    readonly admin: Database,
    readonly replicaAdmin: Database,
  ) {}

  /** Each server joins `started` as soon as it runs, so the run's clean-up stops it whatever fails next. */
  static async start(dir: string, started: Stoppable[]): Promise<Replication> {
    const primary = await MariaDbServer.start(`${dir}/primary`, {
      extraArgs: [
        ...machineInnoDb,
        "--server-id=1",
        "--log-bin=primary-bin",
        "--binlog-format=ROW",
        "--sync-binlog=1",
      ],
    });
    started.push(primary);
    const replica = await MariaDbServer.start(`${dir}/replica`, {
      extraArgs: [...machineInnoDb, "--server-id=2", "--read-only=1"],
    });
    started.push(replica);
    return new Replication(
      primary,
      replica,
      createDatabase({ url: rootUrl(primary), poolSize: 2 }),
      createDatabase({ url: rootUrl(replica), poolSize: 2 }),
    );
  }

  /**
   * Points the replica at the primary by GTID from the start of its binary log, so it replays
   * everything the primary ever wrote (its start-up users included) and then follows.
   */
  async connect(): Promise<void> {
    await this.admin.db.execute("CREATE USER 'repl'@'%' IDENTIFIED BY 'repl'");
    await this.admin.db.execute("GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'");
    await this.replicaAdmin.db.execute(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${this.primary.port}, MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos`,
    );
    await this.replicaAdmin.db.execute("START SLAVE");
  }

  /** The replica has applied every transaction the primary has logged. */
  async caughtUp(): Promise<boolean> {
    const [[p]] = (await this.admin.db.execute("SELECT @@gtid_binlog_pos AS pos")) as unknown as [
      Array<{ pos: string }>,
    ];
    const [[r]] = (await this.replicaAdmin.db.execute("SELECT @@gtid_slave_pos AS pos")) as unknown as [
      Array<{ pos: string }>,
    ];
    return p?.pos === r?.pos;
  }

  /** Whether the replica's I/O and SQL threads still run (an error stops them). */
  async threads(): Promise<{ io: unknown; sql: unknown }> {
    const [[status]] = (await this.replicaAdmin.db.execute("SHOW SLAVE STATUS")) as unknown as [
      Array<Record<string, unknown>>,
    ];
    return { io: status?.Slave_IO_Running, sql: status?.Slave_SQL_Running };
  }

  /** Closes the admin connections; the servers are stopped with the run's others. */
  async close(): Promise<void> {
    await this.admin.close();
    await this.replicaAdmin.close();
  }
}
