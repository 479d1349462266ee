import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/** Rounds whose CLOSE_ROUND was recorded before one of the round's bets or money movements. */
export async function closesBeforeTheirCallbacks(ledger: TestLedger): Promise<string[]> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT rc.round_id AS roundId FROM round_closes rc
    WHERE EXISTS (SELECT 1 FROM journal_entries j
                  WHERE j.tenant_id = rc.tenant_id AND j.round_id = rc.round_id AND j.created_at > rc.created_at)
       OR EXISTS (SELECT 1 FROM bets b
                  WHERE b.tenant_id = rc.tenant_id AND b.round_id = rc.round_id AND b.created_at > rc.created_at)`)) as unknown as Rows<{
    roundId: string;
  }>;
  return rows.map((row) => row.roundId);
}

/**
 * Real money a player staked per closed round (net of rollbacks), straight from the journal: what
 * loyalty is earned on, since points are awarded when the round's CLOSE_ROUND is applied.
 */
export async function stakesByRound(ledger: TestLedger, playerId: number): Promise<bigint[]> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT SUM(-j.amount) AS staked FROM journal_entries j
    WHERE j.player_id = ${playerId} AND j.kind IN ('BET', 'ROLL_BACK')
      AND EXISTS (SELECT 1 FROM round_closes rc WHERE rc.tenant_id = j.tenant_id AND rc.round_id = j.round_id)
    GROUP BY j.round_id`)) as unknown as Rows<{
    staked: string;
  }>;
  return rows.map((row) => BigInt(row.staked));
}

/** The round a tenant's platform opened last (what its bets are being placed in right now). */
export async function newestRound(ledger: TestLedger, tenantId: number): Promise<string | undefined> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT round_id FROM rounds WHERE tenant_id = ${tenantId} AND closed_at IS NULL ORDER BY created_at DESC LIMIT 1`,
  )) as unknown as Rows<{ round_id: string }>;
  return rows[0]?.round_id;
}

/** A stored report row as an earlier version (or a hand edit) left it: `report` is stored as given. */
export async function seedStoredReport(
  ledger: TestLedger,
  row: { tenantId: number; roundId: string; eventId: string; report: string },
): Promise<void> {
  await ledger.db.execute(sql`
    INSERT INTO round_reports (tenant_id, round_id, event_id, bet_count, report)
    VALUES (${row.tenantId}, ${row.roundId}, ${row.eventId}, 0, ${row.report})`);
}
