import {
  type CloseRefusal,
  closeIdsOf,
  closeRefusalReason,
  storedCloseIds,
} from "@wallet/contracts/close-refusal";
import { WalletError } from "@wallet/contracts/errors";
import { cutToCodePoints, limits } from "@wallet/contracts/limits";
import { describeIssues } from "@wallet/contracts/validation";
import { depositRequest } from "@wallet/contracts/wallet-request";
import { and, eq, isNull } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import type { Db } from "../db.ts";
import { failure, type Outcome } from "../outcome.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { withTransaction } from "../transaction.ts";
import { auditDetailText } from "./audit-detail.ts";

/**
 * The most of a body stored in its row, in UTF-8 bytes (`limits.ts`). A close reaches this verb only
 * up to the ordinary body limit (64 KiB; a larger one is stored in pieces by the close intake,
 * `refuseStoredClose`), so only a body that was not UTF-8 grows (each invalid byte is stored as
 * U+FFFD, three bytes): 192 KiB. Past this guard it is cut, and still stored, rather than failing
 * every resend with a 503.
 */
const STORED_BODY_MAX_BYTES = limits.refusedBodyStored.max;

/**
 * A CLOSE_ROUND that cannot be understood: stored with its body and reason (once per distinct
 * body), then answered 400 like any refusal. The gateway answers that 400 only once this is
 * committed, so no refused close goes unrecorded: if the store fails, the platform gets a 503 and
 * resends the same bytes. Not an idempotency record: a corrected close under the same
 * `provider_tx_id` must still be taken. `refusal` is the gateway's, for a close it refused before
 * its schema; without it the close is judged here by its schema.
 */
export async function refuseClose({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: {
    tenantId: number;
    body: unknown;
    bodySha256: string;
    rawBody?: string;
    refusal?: CloseRefusal;
  };
}): Promise<Outcome> {
  const refusal = input.refusal ?? schemaRefusal(input.body);
  // The bytes as received; re-serializing a hostile body (nested 100,000 deep) would overflow.
  const text = input.rawBody ?? JSON.stringify(input.body) ?? "";
  const body = storedBody(text);
  const ids = closeIdsOf(input.body, text);
  const cut = body === text ? "" : `; body stored cut to its first ${STORED_BODY_MAX_BYTES} bytes`;
  const { tenantId, bodySha256 } = input;
  return storeRefusal(ctx, { tenantId, bodySha256, ids, message: `${refusal.message}${cut}`, body }, refusal);
}

/**
 * A close past the ordinary body limit, refused by the close intake: its bytes are already in
 * `bodyPieces` pieces (`close_pieces`, part `body`, under its hash); its row holds the refusal and
 * `preview`, the body's start as text. Then answered 400 like any refusal, once this is committed.
 */
export async function refuseStoredClose({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: {
    tenantId: number;
    bodySha256: string;
    refusal: CloseRefusal;
    ids: { roundId?: string; providerTxId?: string };
    preview: string;
    bodyPieces: number;
    bodyBytes: number;
  };
}): Promise<Outcome> {
  const { tenantId, bodySha256, ids, preview: body, bodyPieces, bodyBytes } = input;
  const row = { tenantId, bodySha256, ids, message: input.refusal.message, body, bodyPieces, bodyBytes };
  return storeRefusal(ctx, row, input.refusal);
}

/**
 * The refusal's row (once per distinct body: a resend stores nothing twice), then the 400 it is
 * answered with, once that row is committed.
 */
async function storeRefusal(
  ctx: LedgerContext,
  row: {
    tenantId: number;
    bodySha256: string;
    ids: { roundId?: string; providerTxId?: string };
    message: string;
    body: string;
    bodyPieces?: number;
    bodyBytes?: number;
  },
  refusal: CloseRefusal,
): Promise<Outcome> {
  const { ids, message, ...rest } = row;
  await ctx.db
    .insert(refusedCloses)
    .ignore()
    .values({
      ...rest,
      ...storedCloseIds(ids),
      reason: refusal.reason,
      message: cutToCodePoints(message, limits.refusalMessage.max),
    });
  return failure(new WalletError("BAD_REQUEST", refusal.message));
}

function schemaRefusal(body: unknown): CloseRefusal {
  const checked = depositRequest.safeParse(body);
  if (checked.success) throw new Error("refuseClose called with a close that parses");
  return { reason: closeRefusalReason(checked.error), message: describeIssues(checked.error) };
}

function storedBody(text: string): string {
  // At most 3 bytes per UTF-16 unit: most bodies need no count.
  if (text.length * 3 <= STORED_BODY_MAX_BYTES || Buffer.byteLength(text) <= STORED_BODY_MAX_BYTES)
    return text;
  const cut = Buffer.from(text).subarray(0, STORED_BODY_MAX_BYTES).toString("utf8");
  // A character split by the cut decodes to U+FFFD at the end: drop it.
  return cut.endsWith("\ufffd") ? cut.slice(0, -1) : cut;
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
      // Kept to 64 KiB: a request of up to 8 MiB goes by its size and digest (`audit-detail.ts`).
      detail: auditDetailText(input.detail),
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
