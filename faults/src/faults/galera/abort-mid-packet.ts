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
}

/**
 * A transaction sent as one multi-statement packet (as the wallet's group commit sends its writes and
 * COMMIT), brute-force aborted in the middle of the packet by a write replicated from `remote`: its
 * UPDATE done, it is in `DO SLEEP` (a statement between two writes, held long enough to be sure
 * where the abort lands) when the remote's conflicting commit is applied on `local`. Returns what the
 * client was told and what is left in the database.
 */
export async function abortMidPacket(local: MariaDbServer, remote: MariaDbServer): Promise<PacketOutcome> {
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
  const victim = await mysql.createConnection({
    host: "127.0.0.1",
    port: local.port,
    user: "root",
    multipleStatements: true,
  });
  try {
    await victim.query(`START TRANSACTION; SELECT n FROM ${schema}.counter WHERE id = 1 FOR UPDATE`);
    const packet = victim
      .query(
        `UPDATE ${schema}.counter SET n = n + 1 WHERE id = 1; DO SLEEP(5); ` +
          `INSERT INTO ${schema}.log (note) VALUES ('after the sleep'); COMMIT`,
      )
      .then(
        () => "committed",
        (error: { errno?: number }) => String(error.errno),
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
    return { reported, ...left };
  } finally {
    await victim.end();
  }
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
