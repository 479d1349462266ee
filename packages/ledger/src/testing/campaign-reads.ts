import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/**
 * What a fault campaign's checker reads from the ledger (faults/src/campaign/checks/), each table read
 * whole: the campaign's database is its own, and these run once, after the load has drained.
 */

export interface JournalLine {
  tenantId: number;
  userId: string;
  providerTxId: string | null;
  kind: string;
  amount: bigint;
  roundId: string | null;
  anomaly: string | null;
  operatorTxId: string;
}

export async function journalLines(ledger: TestLedger): Promise<JournalLine[]> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT j.tenant_id, p.user_id, j.provider_tx_id, j.kind, j.amount, j.round_id, j.anomaly, j.operator_tx_id
    FROM journal_entries j JOIN players p ON p.id = j.player_id ORDER BY j.id`)) as unknown as Rows<{
    tenant_id: number | string;
    user_id: string;
    provider_tx_id: string | null;
    kind: string;
    amount: string | number;
    round_id: string | null;
    anomaly: string | null;
    operator_tx_id: string;
  }>;
  return rows.map((row) => ({
    tenantId: Number(row.tenant_id),
    userId: row.user_id,
    providerTxId: row.provider_tx_id,
    kind: row.kind,
    amount: BigInt(row.amount),
    roundId: row.round_id,
    anomaly: row.anomaly,
    operatorTxId: row.operator_tx_id,
  }));
}

/** Every closed round: its close's key, and each side effect's receipts by event id and topic. */
export async function roundClosesWithReceipts(ledger: TestLedger): Promise<{
  closes: Array<{ tenantId: number; roundId: string; providerTxId: string }>;
  receipts: Map<string, string[]>;
}> {
  const [closes] = (await ledger.db.execute(
    sql`SELECT tenant_id, round_id, provider_tx_id FROM round_closes`,
  )) as unknown as Rows<{ tenant_id: number | string; round_id: string; provider_tx_id: string }>;
  const [receipts] = (await ledger.db.execute(
    sql`SELECT topic, event_id FROM side_effect_receipts`,
  )) as unknown as Rows<{ topic: string; event_id: string }>;
  const byEvent = new Map<string, string[]>();
  for (const receipt of receipts)
    byEvent.set(receipt.event_id, [...(byEvent.get(receipt.event_id) ?? []), receipt.topic]);
  return {
    closes: closes.map((row) => ({
      tenantId: Number(row.tenant_id),
      roundId: row.round_id,
      providerTxId: row.provider_tx_id,
    })),
    receipts: byEvent,
  };
}

/** Each round's stored report (its JSON, as published) by `<tenant>:<round>`. */
export async function storedReports(ledger: TestLedger): Promise<Map<string, string>> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT tenant_id, round_id, report FROM round_reports`,
  )) as unknown as Rows<{ tenant_id: number | string; round_id: string; report: string }>;
  return new Map(rows.map((row) => [`${Number(row.tenant_id)}:${row.round_id}`, row.report]));
}

/** Every stored refused close: its tenant, round and key, and whether it was resolved since. */
export async function refusedCloseRows(
  ledger: TestLedger,
): Promise<
  Array<{ tenantId: number; roundId: string | null; providerTxId: string | null; resolved: boolean }>
> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT tenant_id, round_id, provider_tx_id, resolved_at FROM refused_closes`,
  )) as unknown as Rows<{
    tenant_id: number | string;
    round_id: string | null;
    provider_tx_id: string | null;
    resolved_at: unknown;
  }>;
  return rows.map((row) => ({
    tenantId: Number(row.tenant_id),
    roundId: row.round_id,
    providerTxId: row.provider_tx_id,
    resolved: row.resolved_at !== null,
  }));
}
