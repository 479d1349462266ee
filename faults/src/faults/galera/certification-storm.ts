import { mysqlErrno } from "@wallet/ledger/mysql-errors";
import mysql from "mysql2/promise";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";

export interface StormOutcome {
  /** The storm's own statements that committed, and those that lost (by error number). */
  committed: number;
  lost: Record<string, number>;
}

/**
 * Writes of the test's own through `node`, on the very rows the wallet writes through another node:
 * every given player's wallet row, its `updated_at` only (balance, seq and the journal untouched, so
 * the invariants are the wallet's alone), one autocommit statement after another until `stop`. Each
 * that commits is applied on the wallet's node too, aborting a wallet transaction that holds the row
 * there, or making one that read it before fail certification: Galera's conflict, on the wallet's own
 * transactions, which must be retried whole. The storm's own losses are counted and ignored.
 */
export function certificationStorm(
  node: MariaDbServer,
  database: string,
  playerIds: number[],
): { stop: () => Promise<StormOutcome> } {
  const outcome: StormOutcome = { committed: 0, lost: {} };
  let stopping = false;
  const storming = (async () => {
    const connection = await mysql.createConnection({ host: "127.0.0.1", port: node.port, user: "root" });
    try {
      while (!stopping) {
        try {
          await connection.query(
            `UPDATE \`${database}\`.wallets SET updated_at = CURRENT_TIMESTAMP(3) WHERE player_id IN (?)`,
            [playerIds],
          );
          outcome.committed += 1;
        } catch (error) {
          const errno = String(mysqlErrno(error) ?? "none");
          outcome.lost[errno] = (outcome.lost[errno] ?? 0) + 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    } finally {
      await connection.end();
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await storming;
      return outcome;
    },
  };
}
