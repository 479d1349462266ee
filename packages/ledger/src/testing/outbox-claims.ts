import mysql, { type RowDataPacket } from "mysql2/promise";
import type { ClaimedOutboxRow } from "../side-effects/outbox-queries.ts";
import type { TestLedger } from "./test-ledger.ts";

/**
 * TEST HELPER: two relays' claims of the same rows, as TiDB lets them happen. TiDB parses `FOR UPDATE
 * SKIP LOCKED` and runs it as a plain read that locks nothing (pingcap/tidb#69720; its documented
 * grammar has no SKIP LOCKED): both claims read the unpublished rows before either commits, each marks
 * them published, and each hands them to its publisher. Run here as that plain read, on two
 * connections of the server's admin (what the test does, not what the product sends), in the order
 * two relays would interleave: read, read, mark and commit, mark and commit.
 */
export async function claimTwiceWithoutLocks(
  ledger: TestLedger,
  limit = 500,
): Promise<[ClaimedOutboxRow[], ClaimedOutboxRow[]]> {
  const [first, second] = await Promise.all([
    mysql.createConnection({ uri: ledger.adminUrl }),
    mysql.createConnection({ uri: ledger.adminUrl }),
  ]);
  const read = async (connection: mysql.Connection) => {
    await connection.query("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
    await connection.query("START TRANSACTION");
    const [rows] = await connection.query<RowDataPacket[]>(
      "SELECT id, tenant_id, topic, event_id, payload FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT ?",
      [limit],
    );
    return rows.map(
      (row): ClaimedOutboxRow => ({
        id: Number(row.id),
        tenantId: Number(row.tenant_id),
        topic: String(row.topic),
        eventId: String(row.event_id),
        payload: String(row.payload),
      }),
    );
  };
  const mark = async (connection: mysql.Connection, rows: ClaimedOutboxRow[]) => {
    if (rows.length > 0)
      await connection.query("UPDATE outbox SET published_at = CURRENT_TIMESTAMP(3) WHERE id IN (?)", [
        rows.map((row) => row.id),
      ]);
    await connection.query("COMMIT");
  };
  try {
    const firstRows = await read(first);
    const secondRows = await read(second);
    await mark(first, firstRows);
    await mark(second, secondRows);
    return [firstRows, secondRows];
  } finally {
    await Promise.all([first.end(), second.end()]);
  }
}
