import { closeRefusalReason } from "@wallet/contracts/close-refusal";
import { WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { describeIssues } from "@wallet/contracts/validation";
import { depositRequest } from "@wallet/contracts/wallet-request";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import type { Db } from "../db.ts";
import { failure, type Outcome } from "../outcome.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { withTransaction } from "../transaction.ts";

/**
 * A CLOSE_ROUND that cannot be understood: stored with its body and reason (once per distinct
 * body), then answered 400 like any refusal. The gateway answers that 400 only once this is
 * committed, so no refused close goes unrecorded: if the store fails, the platform gets a 503 and
 * resends the same bytes. Not an idempotency record: a corrected close under the same
 * `provider_tx_id` must still be taken.
 */
export async function refuseClose({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; body: unknown; bodySha256: string; rawBody?: string };
}): Promise<Outcome> {
  const checked = depositRequest.safeParse(input.body);
  if (checked.success) throw new Error("refuseClose called with a close that parses");
  const message = describeIssues(checked.error);
  const field = (name: string, max: number) => {
    const value = (input.body as Record<string, unknown> | null)?.[name];
    return typeof value === "string" && value.length > 0 && value.length <= max ? value : null;
  };
  await ctx.db
    .insert(refusedCloses)
    .ignore()
    .values({
      tenantId: input.tenantId,
      bodySha256: input.bodySha256,
      roundId: field("action_id", 128),
      providerTxId: field("provider_tx_id", 255),
      reason: closeRefusalReason(checked.error),
      message: message.slice(0, 2000),
      // The bytes as received; re-serializing a hostile body (nested 100,000 deep) would overflow.
      body: input.rawBody ?? JSON.stringify(input.body),
    });
  return failure(new WalletError("BAD_REQUEST", message));
}

/** An operator's refused closes, newest first: the open ones, or all. */
export async function listRefusedCloses(
  db: Db,
  input: { tenantId: number; includeResolved: boolean; limit: number },
) {
  const rows = await db
    .select()
    .from(refusedCloses)
    .where(
      and(
        eq(refusedCloses.tenantId, input.tenantId),
        input.includeResolved ? undefined : isNull(refusedCloses.resolvedAt),
      ),
    )
    .orderBy(desc(refusedCloses.id))
    .limit(input.limit);
  return rows.map((row) => ({
    id: row.id,
    round_id: row.roundId,
    provider_tx_id: row.providerTxId,
    reason: row.reason,
    message: row.message,
    /** The body as received, as text: what the platform sent, byte for byte. */
    body: row.body,
    refused_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolution: row.resolution,
  }));
}

/**
 * After a manual close was answered 200: the audit line (who, which round, what they sent, what it
 * answered) and the round's refused closes marked resolved by it, in one transaction.
 */
export async function recordManualClose(
  db: Db,
  input: { tenantId: number; roundId: string; actor: string; detail: Record<string, unknown> },
): Promise<{ resolved: number }> {
  return withTransaction(db, async (tx) => {
    await tx.insert(operatorActions).values({
      tenantId: input.tenantId,
      action: "manual_close",
      subject: input.roundId,
      actor: input.actor,
      detail: stringifyJson(input.detail),
    });
    const [result] = await tx
      .update(refusedCloses)
      .set({ resolvedAt: new Date(), resolution: `manual close through the operator API (${input.actor})` })
      .where(
        and(
          eq(refusedCloses.tenantId, input.tenantId),
          eq(refusedCloses.roundId, input.roundId),
          isNull(refusedCloses.resolvedAt),
        ),
      );
    return { resolved: (result as unknown as { affectedRows: number }).affectedRows };
  });
}
