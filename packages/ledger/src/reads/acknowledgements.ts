import { and, eq } from "drizzle-orm";
import type { Db } from "../db.ts";
import { bets } from "../schema/bets.ts";
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

export interface RecordedByProvider {
  /** Journal kind, `FREE_BET` (a bet row, no money moved) or `CLOSE_ROUND`. */
  kind: string;
  /** Signed journal amount; 0 for a free bet or a round close. */
  amount: bigint;
  /** The wallet balance this line left, the one the answer carried; null when no money moved. */
  balanceAfter: bigint | null;
  /** How many times it was recorded: anything but 1 is a double (or worse). */
  times: number;
}

/**
 * What the ledger recorded for each of a tenant's `provider_tx_id`s: journal lines, free bets and
 * round closes, counted, for an audit of what a client was told against what was written. Reads
 * whole tables: a test and benchmark tool, not for production's database.
 */
export async function recordedByProviderTx(
  db: Db,
  tenantId: number,
): Promise<Map<string, RecordedByProvider>> {
  const recorded = new Map<string, RecordedByProvider>();
  const add = (providerTxId: string | null, entry: Omit<RecordedByProvider, "times">) => {
    if (providerTxId === null) return;
    const seen = recorded.get(providerTxId);
    recorded.set(providerTxId, { ...entry, times: (seen?.times ?? 0) + 1 });
  };
  const lines = await db
    .select({
      providerTxId: journalEntries.providerTxId,
      kind: journalEntries.kind,
      amount: journalEntries.amount,
      balanceAfter: journalEntries.balanceAfter,
    })
    .from(journalEntries)
    .where(eq(journalEntries.tenantId, tenantId));
  for (const line of lines) add(line.providerTxId, line);
  const freeBets = await db
    .select({ providerTxId: bets.providerTxId })
    .from(bets)
    .where(and(eq(bets.tenantId, tenantId), eq(bets.kind, "FREE_BET")));
  for (const bet of freeBets) add(bet.providerTxId, { kind: "FREE_BET", amount: 0n, balanceAfter: null });
  const closes = await db
    .select({ providerTxId: roundCloses.providerTxId })
    .from(roundCloses)
    .where(eq(roundCloses.tenantId, tenantId));
  for (const close of closes)
    add(close.providerTxId, { kind: "CLOSE_ROUND", amount: 0n, balanceAfter: null });
  return recorded;
}
