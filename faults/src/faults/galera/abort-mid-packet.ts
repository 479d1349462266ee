import { isTransientLockError } from "@wallet/ledger/mysql-errors";
import { beginStatements, commitStatements } from "@wallet/ledger/sql/multi-statement";
import { until } from "@wallet/system-tests/harness/processes/readiness";
import mysql from "mysql2/promise";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";
import { asRoot } from "../../servers/mariadb-server.ts";

const schema = "galera_packet";

export interface PacketOutcome {
  /** What the client was told of its packet: "committed", or the error number it got. */
  reported: string;
  /** The counter the packet's UPDATE added 1 to, after the remote's +10: 11 if the packet held. */
  counter: number;
  /** Rows the packet's INSERT left (1 if the packet held, 0 if it was rolled back whole). */
  inserted: number;
  /**
   * The error classed transient by the ledger (`isTransientLockError`), so its caller runs the whole
   * transaction again; then what that run left (counter 11, 1 row: the transaction once, whole).
   */
  retried?: { counter: number; inserted: number };
}

/**
 * How the transaction is sent. `raw`: `START TRANSACTION`, then writes and COMMIT in one packet, as
 * the wallet sent them before issue 41. `guarded`: the wallet's shape now, the statements of
 * `beginStatements` and `commitStatements` (`packages/ledger/src/sql/multi-statement.ts`: autocommit
 * off, a savepoint released before COMMIT). `abortAt`: where in the packet the abort lands, between
 * its two writes or between the savepoint's release and COMMIT (the guard already passed).
 */
export interface PacketShape {
  guarded: boolean;
  abortAt: "between-writes" | "before-commit";
}

/**
 * A transaction sent as one multi-statement packet (as the wallet's group commit sends its writes and
 * COMMIT), brute-force aborted in the middle of the packet by a write replicated from `remote`: it is
 * in `DO SLEEP` (a statement held long enough to be sure where the abort lands) when the remote's
 * conflicting commit is applied on `local`. Returns what the client was told, what is left in the
 * database, and, when the error is one the ledger retries, what running it again whole left.
 */
export async function abortMidPacket(
  local: MariaDbServer,
  remote: MariaDbServer,
  shape: PacketShape = { guarded: false, abortAt: "between-writes" },
): Promise<PacketOutcome> {
  await asRoot(local, async (root) => {
    await root.query(`CREATE DATABASE IF NOT EXISTS ${schema}`);
    await root.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.counter (id INT NOT NULL PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB`,
    );
    await root.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.log (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, note VARCHAR(40) NOT NULL) ENGINE=InnoDB`,
    );
    await root.query(`REPLACE INTO ${schema}.counter (id, n) VALUES (1, 0)`);
    await root.query(`DELETE FROM ${schema}.log`);
  });
  await readBack(remote, (row) => row.counter === 0 && row.inserted === 0);
  const victim = await connect(local);
  const { begin, packet: text } = transaction(shape);
  let failure: unknown;
  try {
    await victim.query(begin);
    const packet = victim.query(text).then(
      () => "committed",
      (error: { errno?: number }) => {
        failure = error;
        return String(error.errno);
      },
    );
    await until(
      "the packet in its sleep",
      () =>
        asRoot(local, async (root) => {
          const [rows] = await root.query(
            "SELECT STATE AS state FROM information_schema.PROCESSLIST WHERE ID = ?",
            [victim.threadId],
          );
          if ((rows as Array<{ state: string }>)[0]?.state !== "User sleep")
            throw new Error("not sleeping yet");
        }),
      10_000,
    );
    await asRoot(remote, (root) => root.query(`UPDATE ${schema}.counter SET n = n + 10 WHERE id = 1`));
    const reported = await packet;
    // What is left, once `remote` has everything `local` committed.
    const left = await readBack(local, () => true);
    await readBack(remote, (row) => row.counter === left.counter && row.inserted === left.inserted);
    if (!isTransientLockError(failure)) return { reported, ...left };
    // What `multiStatementTransaction` does: roll back (on a new connection if this one refuses) and
    // run the whole transaction again; no abort this time.
    const again = transaction({ ...shape, abortAt: "between-writes" }, false);
    const fresh = await connect(local);
    try {
      await fresh.query(`${again.begin}; ${again.packet}`);
    } finally {
      await fresh.end();
    }
    const retried = await readBack(local, () => true);
    return { reported, ...left, retried };
  } finally {
    await victim.end().catch(() => {});
  }
}

const connect = (node: MariaDbServer) =>
  mysql.createConnection({ host: "127.0.0.1", port: node.port, user: "root", multipleStatements: true });

/** The transaction's first round trip (open it, lock the row) and its packet. */
function transaction(shape: PacketShape, sleep = true): { begin: string; packet: string } {
  const lock = `SELECT n FROM ${schema}.counter WHERE id = 1 FOR UPDATE`;
  const update = `UPDATE ${schema}.counter SET n = n + 1 WHERE id = 1`;
  const insert = `INSERT INTO ${schema}.log (note) VALUES ('after the sleep')`;
  const held = sleep ? ["DO SLEEP(5)"] : [];
  if (!shape.guarded)
    return { begin: `START TRANSACTION; ${lock}`, packet: [update, ...held, insert, "COMMIT"].join("; ") };
  const [release, ...commit] = commitStatements;
  const statements =
    shape.abortAt === "between-writes"
      ? [update, ...held, insert, release, ...commit]
      : [update, insert, release, ...held, ...commit];
  return { begin: [...beginStatements, lock].join("; "), packet: statements.join("; ") };
}

async function readBack(
  node: MariaDbServer,
  done: (row: { counter: number; inserted: number }) => boolean,
): Promise<{ counter: number; inserted: number }> {
  let row = { counter: Number.NaN, inserted: Number.NaN };
  await until(
    "the packet's rows",
    () =>
      asRoot(node, async (root) => {
        const [rows] = await root.query(
          `SELECT (SELECT n FROM ${schema}.counter WHERE id = 1) AS counter, (SELECT COUNT(*) FROM ${schema}.log) AS inserted`,
        );
        const read = (rows as Array<{ counter: string; inserted: string }>)[0];
        row = { counter: Number(read?.counter), inserted: Number(read?.inserted) };
        if (!done(row)) throw new Error(`counter ${row.counter}, ${row.inserted} inserted`);
      }),
    10_000,
  );
  return row;
}
