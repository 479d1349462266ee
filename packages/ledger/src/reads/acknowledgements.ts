import { eq } from "drizzle-orm";
import type { Db } from "../db.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { roundCloses } from "../schema/round-closes.ts";

export interface RecordedAnswer {
  kind: string;
  providerTxId: string | null;
  /** Signed journal amount; 0 for a round close. */
  amount: bigint;
}

/**
 * Every operator_tx_id the ledger holds for a tenant (journal lines and round closes), for an
 * audit that each 200 a client received was really recorded. Reads whole tables: a tool for the
 * benchmark's throwaway database, not for production's.
 */
export async function recordedAnswers(db: Db, tenantId: number): Promise<Map<string, RecordedAnswer>> {
  const recorded = new Map<string, RecordedAnswer>();
  const lines = await db
    .select({
      operatorTxId: journalEntries.operatorTxId,
      providerTxId: journalEntries.providerTxId,
      kind: journalEntries.kind,
      amount: journalEntries.amount,
    })
    .from(journalEntries)
    .where(eq(journalEntries.tenantId, tenantId));
  for (const line of lines) recorded.set(line.operatorTxId, line);
  const closes = await db
    .select({ operatorTxId: roundCloses.operatorTxId, providerTxId: roundCloses.providerTxId })
    .from(roundCloses)
    .where(eq(roundCloses.tenantId, tenantId));
  for (const close of closes) recorded.set(close.operatorTxId, { ...close, kind: "CLOSE_ROUND", amount: 0n });
  return recorded;
}
