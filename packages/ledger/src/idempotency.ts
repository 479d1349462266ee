import { WalletError } from "@wallet/contracts/errors";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { CallbackInput } from "./callback-input.ts";
import type { LedgerContext } from "./context.ts";
import type { Tx } from "./db.ts";
import { ER_DUP_ENTRY } from "./mysql-errors.ts";
import { answer, failure, type Outcome, parseInput } from "./outcome.ts";
import { idempotencyRecords } from "./schema/idempotency-records.ts";
import { withTransaction } from "./transaction.ts";

export interface IdempotencyKey {
  tenantId: number;
  providerTxId: string;
  action: string;
  /** SHA-256 (hex) of the raw request bytes: equal bytes replay, different bytes conflict. */
  bodySha256: string;
}

/** The key of a parsed `/withdraw` or `/deposit` request. */
function keyOf(
  input: { tenantId: number; bodySha256: string },
  request: { provider_tx_id: string; action: string },
): IdempotencyKey {
  return {
    tenantId: input.tenantId,
    providerTxId: request.provider_tx_id,
    action: request.action,
    bodySha256: input.bodySha256,
  };
}

type StoredRecord = { bodySha256: string; status: number; response: string };

/**
 * A callback verb that runs alone: validate the body with `schema` (400 otherwise, never stored),
 * then `work` once per `(tenant, provider_tx_id)` with its answer stored (`runIdempotent`).
 */
export function idempotentCallback<S extends z.ZodType<{ provider_tx_id: string; action: string }>>(
  schema: S,
  work: (tx: Tx, request: z.output<S>, input: CallbackInput) => Promise<Outcome>,
) {
  return ({ ctx, input }: { ctx: LedgerContext; input: CallbackInput }): Promise<Outcome> =>
    answer(async () => {
      const request = parseInput(schema, input.body);
      return runIdempotent(ctx, keyOf(input, request), (tx) => work(tx, request, input));
    });
}

/**
 * Runs `work` at most once per `(tenant, provider_tx_id)` and stores its answer in the same
 * transaction. A later request with the key gets the stored bytes back (same body) or a 409 that
 * carries them (different body); neither moves money.
 *
 * The primary key is the guard: the read at the start only saves work. Two concurrent twins both
 * run; the loser hits a duplicate key (on this table or on `bets`), rolls back everything it did,
 * and its next attempt finds the winner's committed record.
 */
export async function runIdempotent(
  ctx: LedgerContext,
  key: IdempotencyKey,
  work: (tx: Tx) => Promise<Outcome>,
): Promise<Outcome> {
  const policy = {
    attempts: ctx.config.transactionAttempts,
    retryMs: ctx.config.transactionRetryMs,
    alsoRetryOn: [ER_DUP_ENTRY],
    onRetry: (errno: number | undefined) => ctx.onTransactionRetry?.(errno),
  };
  try {
    return await withTransaction(
      ctx.db,
      async (tx) => {
        const existing = await findRecord(tx, key.tenantId, key.providerTxId);
        if (existing) return replay(existing, key.bodySha256);
        const outcome = await work(tx);
        await storeRecord(tx, key, outcome);
        return outcome;
      },
      policy,
    );
  } catch (error) {
    if (!(error instanceof WalletError) || error.retryable) throw error;
    // A rejection rolled back whatever the verb had written; its answer is stored on its own, so a
    // retry of the same request gets the same rejection rather than a fresh attempt.
    const rejection = failure(error);
    return withTransaction(
      ctx.db,
      async (tx) => {
        const existing = await findRecord(tx, key.tenantId, key.providerTxId);
        if (existing) return replay(existing, key.bodySha256);
        await storeRecord(tx, key, rejection);
        return rejection;
      },
      policy,
    );
  }
}

async function storeRecord(tx: Tx, key: IdempotencyKey, outcome: Outcome): Promise<void> {
  await tx.insert(idempotencyRecords).values({
    tenantId: key.tenantId,
    providerTxId: key.providerTxId,
    bodySha256: key.bodySha256,
    action: key.action,
    status: outcome.status,
    response: outcome.body,
  });
}

export async function findRecord(
  tx: Tx,
  tenantId: number,
  providerTxId: string,
): Promise<StoredRecord | undefined> {
  const [row] = await tx
    .select({
      bodySha256: idempotencyRecords.bodySha256,
      status: idempotencyRecords.status,
      response: idempotencyRecords.response,
    })
    .from(idempotencyRecords)
    .where(and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.providerTxId, providerTxId)))
    .limit(1);
  return row;
}

export function replay(record: StoredRecord, bodySha256: string): Outcome {
  if (record.bodySha256 === bodySha256)
    return { status: record.status, body: record.response, replayed: true };
  // The original envelope is spliced in as stored, so the platform sees the exact first answer.
  const body = `{"code":409,"message":"provider_tx_id was already used with a different request body; data holds the original response","data":${record.response}}`;
  return { status: 409, body, replayed: true };
}
