import { createDatabase } from "@wallet/ledger/db";
import { isTransientLockError, mysqlErrno } from "@wallet/ledger/mysql-errors";
import { withTransaction } from "@wallet/ledger/transaction";
import { until } from "@wallet/system-tests/harness/processes/readiness";
import mysql from "mysql2/promise";
import type { GaleraCluster } from "../../servers/galera-cluster.ts";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";
import { asRoot } from "../../servers/mariadb-server.ts";

/** A database of the test's own: the conflicts are made on a counter row, never in the wallet's ledger. */
const schema = "galera_conflict";

export interface ConflictOutcome {
  /** What the losing COMMIT got: its error number, SQLSTATE and message. */
  loser: { errno: number | undefined; sqlState: string | undefined; message: string };
  /** Whether the ledger's classifier takes it for a conflict to run again (`isTransientLockError`). */
  classedTransient: boolean;
  /** The error numbers `withTransaction` retried on before it committed, and the attempts it took. */
  retriedOn: Array<number | undefined>;
  attempts: number;
  /** The counter as each node holds it at the end (both writers' increments, the lost attempts' none). */
  counterByNode: number[];
  /** The local node's `wsrep_local_cert_failures` and `wsrep_local_bf_aborts` grown meanwhile. */
  certFailures: number;
  bfAborts: number;
}

/**
 * Galera's conflict between two nodes, made deterministic: a transaction open on `local` has updated
 * the counter row when `remote` commits its own update of the same row. The remote commit is ordered
 * first, so the local one loses: Galera's applier aborts it on `local` (a brute-force abort; had its
 * COMMIT come before the applier, certification would have refused it), and the client gets
 * ER_LOCK_DEADLOCK (1213) either way. Done once on a raw connection, to see the error as the server
 * sends it, and once through the ledger's own `withTransaction`, which must run the whole transaction
 * again and commit it.
 */
export async function certificationConflict(
  cluster: GaleraCluster,
  local: MariaDbServer,
  remote: MariaDbServer,
): Promise<ConflictOutcome> {
  await asRoot(local, async (connection) => {
    await connection.query(`CREATE DATABASE IF NOT EXISTS ${schema}`);
    await connection.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.counter (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL) ENGINE=InnoDB`,
    );
    await connection.query(`REPLACE INTO ${schema}.counter (id, n) VALUES (1, 0)`);
  });
  await counterEverywhere([local, remote], 0);
  // The remote commit, then its arrival on `local` (its applier has aborted the open transaction there
  // by then): the open transaction's COMMIT is certain to lose, and the retry to see the new row.
  const remoteWrite = async (by: number, total: number) => {
    await asRoot(remote, (connection) =>
      connection.query(`UPDATE ${schema}.counter SET n = n + ${by} WHERE id = 1`),
    );
    await counterEverywhere([local], total);
  };
  const before = await cluster.status(local);

  const raw = await mysql.createConnection({ host: "127.0.0.1", port: local.port, user: "root" });
  let loser: ConflictOutcome["loser"] = { errno: undefined, sqlState: undefined, message: "committed" };
  let classedTransient = false;
  try {
    await raw.query("BEGIN");
    await raw.query(`UPDATE ${schema}.counter SET n = n + 1 WHERE id = 1`);
    await remoteWrite(10, 10);
    await raw.query("COMMIT");
  } catch (error) {
    const { sqlState, message } = error as { sqlState?: string; message: string };
    loser = { errno: mysqlErrno(error), sqlState, message };
    classedTransient = isTransientLockError(error);
  } finally {
    await raw.end();
  }

  const ledger = createDatabase({ url: `mysql://root@127.0.0.1:${local.port}/${schema}`, poolSize: 1 });
  const retriedOn: Array<number | undefined> = [];
  let attempts = 0;
  try {
    await withTransaction(
      ledger.db,
      async (tx) => {
        attempts += 1;
        await tx.execute(`UPDATE counter SET n = n + 1 WHERE id = 1`);
        if (attempts === 1) await remoteWrite(100, 110);
      },
      { attempts: 5, onRetry: (errno) => retriedOn.push(errno) },
    );
  } finally {
    await ledger.close();
  }
  const after = await cluster.status(local);
  const grown = (name: string) => Number(after[name]) - Number(before[name]);
  // 10 and 100 from `remote`, 1 from the retried transaction; the lost attempts added nothing.
  const counterByNode = await counterEverywhere([local, remote], 111).catch(() =>
    readCounters([local, remote]),
  );
  return {
    loser,
    classedTransient,
    retriedOn,
    attempts,
    counterByNode,
    certFailures: grown("wsrep_local_cert_failures"),
    bfAborts: grown("wsrep_local_bf_aborts"),
  };
}

/** Resolves once every node holds `value` (replication applies asynchronously after the commit); their values. */
async function counterEverywhere(nodes: MariaDbServer[], value: number): Promise<number[]> {
  let last: number[] = [];
  await until(
    `the counter at ${value} on every node`,
    async () => {
      last = await readCounters(nodes);
      if (last.some((n) => n !== value)) throw new Error(`counters ${last.join(", ")}`);
    },
    10_000,
  );
  return last;
}

function readCounters(nodes: MariaDbServer[]): Promise<number[]> {
  return Promise.all(
    nodes.map((node) =>
      asRoot(node, async (connection) => {
        const [rows] = await connection.query(`SELECT n FROM ${schema}.counter WHERE id = 1`);
        return Number((rows as Array<{ n: string }>)[0]?.n);
      }),
    ),
  );
}
