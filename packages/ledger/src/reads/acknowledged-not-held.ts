import type { LoggedAcknowledgement } from "@wallet/queue/ack-log-read";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { type RoundKey, roundKey } from "./round-players.ts";

/** A callback the platform was answered 200 for, as the acknowledgement log names it (`@wallet/queue/ack-log`). */
export type AcknowledgedCall = Omit<LoggedAcknowledgement, "partition" | "replayed">;

/** Ids per statement: a few hundred keep each IN list one short index range read. */
const idsPerRead = 500;

/**
 * Of these acknowledged callbacks, those the ledger holds no answer for: every callback answered 200
 * stored its answer (`idempotency_records`, by operator and `provider_tx_id`) in the transaction that
 * applied it, so a missing one was acknowledged and lost. One indexed read per few hundred ids.
 */
export async function acknowledgedNotHeld<T extends AcknowledgedCall>(db: Db, calls: T[]): Promise<T[]> {
  const byOperator = new Map<number, Set<string>>();
  for (const call of calls)
    byOperator.set(call.operatorId, (byOperator.get(call.operatorId) ?? new Set()).add(call.providerTxId));
  const held = new Set<string>();
  for (const [operatorId, ids] of byOperator) {
    const all = [...ids];
    for (let at = 0; at < all.length; at += idsPerRead) {
      const rows = await db
        .select({ providerTxId: idempotencyRecords.providerTxId })
        .from(idempotencyRecords)
        .where(
          and(
            eq(idempotencyRecords.tenantId, operatorId),
            inArray(idempotencyRecords.providerTxId, all.slice(at, at + idsPerRead)),
          ),
        );
      for (const row of rows) held.add(`${operatorId} ${row.providerTxId}`);
    }
  }
  return calls.filter((call) => !held.has(`${call.operatorId} ${call.providerTxId}`));
}

/**
 * The acknowledged callbacks the ledger lacks, by round (`roundKey`), each round's oldest first and
 * each callback once (a resend answered 200 again is logged again under its `provider_tx_id`), with
 * the finding's words for `rounds:at-risk`.
 */
export function notHeldByRound(calls: AcknowledgedCall[]) {
  const rounds = new Map<string, { round: RoundKey; calls: AcknowledgedCall[]; text: string }>();
  const seen = new Set<string>();
  for (const call of [...calls].sort((a, b) => a.answeredAt - b.answeredAt)) {
    if (seen.has(`${call.operatorId} ${call.providerTxId}`)) continue;
    seen.add(`${call.operatorId} ${call.providerTxId}`);
    const round = { tenantId: call.operatorId, roundId: call.roundId };
    const entry = rounds.get(roundKey(round)) ?? { round, calls: [], text: "" };
    entry.calls.push(call);
    rounds.set(roundKey(round), entry);
  }
  for (const entry of rounds.values()) {
    const lines = entry.calls.map(
      (call) =>
        `${call.action} ${call.providerTxId}${call.userId === null ? "" : ` of user ${call.userId}`} (${call.amount}) at ${new Date(call.answeredAt).toISOString()}`,
    );
    entry.text = `${entry.calls.length} callback(s) answered 200 that the ledger does not hold (the acknowledgement log): ${lines.join(", ")}`;
  }
  return rounds;
}
