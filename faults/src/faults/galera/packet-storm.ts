import { randomUUID } from "node:crypto";
import { beginStatements, commitStatements } from "@wallet/ledger/sql/multi-statement";
import mysql from "mysql2/promise";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";
import { asRoot } from "../../servers/mariadb-server.ts";

const schema = "galera_packet_storm";
const accounts = 8;

export interface PacketStormOutcome {
  /** Transactions sent, and those the client was told committed. */
  sent: number;
  reportedCommitted: number;
  /** Told committed, yet its INSERT is missing, or there twice (the autocommit retry). */
  committedButMissing: number;
  doubled: number;
  /** Told it failed, yet something of it is there. */
  failedButPresent: number;
  /** Sum over the accounts of |counter − its INSERTs|: a transaction's UPDATE and INSERT held apart. */
  split: number;
  /** The remote's conflicting commits. */
  remoteCommits: number;
}

/**
 * Many transactions of the wallet's packet shape through `local` (a locking read, then one packet:
 * an UPDATE of an account, an INSERT naming the transaction, COMMIT), 4 connections for `ms`, while
 * `remote` commits updates of the same accounts (another column) one after another: the brute-force
 * aborts land wherever they land, not only in a sleep. `guarded`: the wallet's statements around
 * them (`beginStatements`, `commitStatements`); else `START TRANSACTION` and a bare COMMIT. Failures
 * are not retried: each transaction is checked against what it was told.
 */
export async function packetStorm(
  local: MariaDbServer,
  remote: MariaDbServer,
  guarded: boolean,
  ms: number,
): Promise<PacketStormOutcome> {
  await asRoot(local, async (root) => {
    await root.query(`DROP DATABASE IF EXISTS ${schema}`);
    await root.query(`CREATE DATABASE ${schema}`);
    await root.query(
      `CREATE TABLE ${schema}.account (id INT NOT NULL PRIMARY KEY, n INT NOT NULL, touched INT NOT NULL) ENGINE=InnoDB`,
    );
    await root.query(
      `CREATE TABLE ${schema}.entry (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, account INT NOT NULL, tag CHAR(36) NOT NULL) ENGINE=InnoDB`,
    );
    for (let id = 1; id <= accounts; id++)
      await root.query(`INSERT INTO ${schema}.account (id, n, touched) VALUES (?, 0, 0)`, [id]);
  });
  const told = new Map<string, boolean>();
  const until = performance.now() + ms;
  let remoteCommits = 0;
  const begin = guarded ? beginStatements.join("; ") : "START TRANSACTION";
  const end = guarded ? commitStatements.join("; ") : "COMMIT";
  const rollback = guarded ? "ROLLBACK; SET autocommit = 1" : "ROLLBACK";
  const client = async () => {
    let connection = await connect(local);
    try {
      while (performance.now() < until) {
        const account = 1 + Math.floor(Math.random() * accounts);
        const tag = randomUUID();
        try {
          await connection.query(`${begin}; SELECT n FROM account WHERE id = ? FOR UPDATE`, [account]);
          await connection.query(
            `UPDATE account SET n = n + 1 WHERE id = ?; INSERT INTO entry (account, tag) VALUES (?, ?); ${end}`,
            [account, account, tag],
          );
          told.set(tag, true);
        } catch {
          told.set(tag, false);
          // A connection that will not even roll back is replaced, as the ledger's pool does.
          await connection.query(rollback).catch(async () => {
            connection.destroy();
            connection = await connect(local);
          });
        }
      }
    } finally {
      await connection.end().catch(() => {});
    }
  };
  const storm = async () => {
    const connection = await connect(remote);
    try {
      while (performance.now() < until) {
        const account = 1 + Math.floor(Math.random() * accounts);
        await connection.query("UPDATE account SET touched = touched + 1 WHERE id = ?", [account]).then(
          () => {
            remoteCommits += 1;
          },
          () => {},
        );
      }
    } finally {
      await connection.end();
    }
  };
  await Promise.all([client(), client(), client(), client(), storm()]);
  // Read on `remote` once it holds all `local` committed (the entries' count stops changing).
  const read = () =>
    asRoot(remote, async (root) => {
      const [entries] = await root.query(`SELECT tag, COUNT(*) AS c FROM ${schema}.entry GROUP BY tag`);
      const [split] = await root.query(
        `SELECT COALESCE(SUM(ABS(a.n - (SELECT COUNT(*) FROM ${schema}.entry e WHERE e.account = a.id))), 0) AS s FROM ${schema}.account a`,
      );
      return {
        entries: new Map(
          (entries as Array<{ tag: string; c: number }>).map((row) => [row.tag, Number(row.c)]),
        ),
        split: Number((split as Array<{ s: string }>)[0]?.s),
      };
    });
  let state = await read();
  for (let settled = false; !settled; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await read();
    settled = again.entries.size === state.entries.size && again.split === state.split;
    state = again;
  }
  const outcome: PacketStormOutcome = {
    sent: told.size,
    reportedCommitted: 0,
    committedButMissing: 0,
    doubled: 0,
    failedButPresent: 0,
    split: state.split,
    remoteCommits,
  };
  for (const [tag, committed] of told) {
    const rows = state.entries.get(tag) ?? 0;
    if (committed) outcome.reportedCommitted += 1;
    if (committed && rows === 0) outcome.committedButMissing += 1;
    if (rows > 1) outcome.doubled += 1;
    if (!committed && rows > 0) outcome.failedButPresent += 1;
  }
  return outcome;
}

const connect = (node: MariaDbServer) =>
  mysql.createConnection({
    host: "127.0.0.1",
    port: node.port,
    user: "root",
    database: schema,
    multipleStatements: true,
  });
