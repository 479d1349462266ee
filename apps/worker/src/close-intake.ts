import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { tooLargeMessage } from "@wallet/contracts/callback-reading";
import { CloseReader, type StreamedCloseVerdict } from "@wallet/contracts/close-stream/close-reader";
import { WalletError } from "@wallet/contracts/errors";
import { type CloseIntakeJob, redisNames } from "@wallet/contracts/jobs";
import { dropUnusedClosePieces, storeClosePieces } from "@wallet/ledger/close-pieces/pieces";
import type { LedgerContext } from "@wallet/ledger/context";
import { failure, type Outcome, transientFailure } from "@wallet/ledger/outcome";
import { refuseStoredClose } from "@wallet/ledger/verbs/refused-closes";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import { storeCloseAnswer, storedCloseAnswer } from "@wallet/queue/close-intake";
import type { RedisClient } from "@wallet/queue/redis";
import type { Logger } from "@wallet/telemetry/logger";

const gzipped = promisify(gzip);

export interface CloseIntakeDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  prefix: string;
  /** The partitions, where the close's round is closed like any other (`storedClose`). */
  route: LedgerRoute;
  logger: Logger;
  /** Test hook (`test-crash-points.ts`): a pause once the close is read, before anything is stored. */
  holdAfterReadMs?: number;
}

/** What the intake made of a close: the answer, and how it went (the metric's label). */
export interface IntakeResult {
  outcome: Outcome;
  result: "closed" | "refused" | "not_a_close" | "answered_before" | "failed";
}

/**
 * How long the intake waits for the round's partition to close a close it stored: a partition
 * answers in milliseconds, and one whose worker died is taken back within JOB_LOCK_MS and a stall
 * check; past this the answer is a 503 (the close is closed all the same, its resend answered).
 */
const ROUND_CLOSE_WAIT_MS = 30_000;

/**
 * One CLOSE_ROUND past the ordinary body limit, off every partition: its bytes read from Redis a
 * piece at a time and judged as they stream by (`CloseReader`: the verdict a whole-body reader would
 * give), then stored in pieces (`close_pieces`: its arrays, or its bytes when refused), and only then
 * its round closed on the round's partition, by a call of a few hundred bytes. Its deadline does not
 * stop it: the work is finished however long it takes, and the answer kept for the platform's
 * resends (`storeCloseAnswer`). A failure on the way is a 503 the platform resends; every step is
 * idempotent (pieces by key, the close by its round and key), so a resend finishes the job.
 */
export async function takeClose(deps: CloseIntakeDeps, job: CloseIntakeJob): Promise<IntakeResult> {
  const { redis, prefix } = deps;
  const bodyKey = redisNames(prefix).closeBody(job.id);
  try {
    // Answered meanwhile (another send of the same bytes): this send's pieces go all the same.
    const before = await storedCloseAnswer(redis, prefix, job.tenantId, job.bodySha256);
    if (before) return { outcome: { ...before, replayed: true }, result: "answered_before" };
    const verdict = await readClose(redis, bodyKey, job);
    if (!verdict) {
      deps.logger.error(
        { tenant: job.tenantId, bytes: job.bytes },
        "a large close's bytes are gone from Redis",
      );
      return { outcome: transientFailure, result: "failed" };
    }
    if (deps.holdAfterReadMs) await new Promise((resolve) => setTimeout(resolve, deps.holdAfterReadMs));
    const taken = await settle(deps, job, bodyKey, verdict);
    if (taken.outcome.status < 500) await storeCloseAnswer(redis, prefix, job, taken.outcome);
    return taken;
  } catch (error) {
    deps.logger.error({ err: error, tenant: job.tenantId, bytes: job.bytes }, "close intake failed");
    return { outcome: transientFailure, result: "failed" };
  } finally {
    await redis.del(bodyKey).catch(() => {});
  }
}

/** The close's verdict, its pieces read one per event-loop turn; undefined when Redis lost them. */
async function readClose(
  redis: RedisClient,
  bodyKey: string,
  job: CloseIntakeJob,
): Promise<StreamedCloseVerdict | undefined> {
  const reader = new CloseReader();
  for (const piece of bodyPieces(redis, bodyKey, job.pieces)) {
    const bytes = await piece;
    if (!bytes) return undefined;
    reader.write(bytes);
  }
  return reader.bytes === job.bytes ? reader.finish() : undefined;
}

function* bodyPieces(redis: RedisClient, bodyKey: string, pieces: number) {
  for (let index = 0; index < pieces; index++) yield redis.lindexBuffer(bodyKey, index);
}

async function settle(
  deps: CloseIntakeDeps,
  job: CloseIntakeJob,
  bodyKey: string,
  verdict: StreamedCloseVerdict,
): Promise<IntakeResult> {
  const { ctx } = deps;
  const key = { tenantId: job.tenantId, bodySha256: job.bodySha256 };
  switch (verdict.kind) {
    case "too-large":
      return {
        outcome: failure(new WalletError("PAYLOAD_TOO_LARGE", tooLargeMessage(job.bodyLimitBytes))),
        result: "not_a_close",
      };
    case "refused":
      return { outcome: failure(new WalletError("BAD_REQUEST", verdict.message)), result: "not_a_close" };
    case "refused-close": {
      // Its bytes as received, a piece at a time and each gzipped (on libuv's threads, not this loop):
      // the refusal's only trace of its round's close. A refused close is mostly what a platform
      // sends wrong at length (padding, bytes that are not UTF-8, arrays of text), which compresses
      // well, and every byte not written is memory the worker does not hold meanwhile.
      const stored = async function* () {
        for (const piece of bodyPieces(deps.redis, bodyKey, job.pieces)) {
          const bytes = await piece;
          if (!bytes) throw new Error("a refused close's bytes are gone from Redis");
          yield await gzipped(bytes, { level: 1 });
        }
      };
      const bodyPieceCount = await storeClosePieces(ctx, key, "body", stored());
      const outcome = await refuseStoredClose({
        ctx,
        input: {
          ...key,
          refusal: verdict.refusal,
          ids: verdict,
          preview: verdict.head,
          bodyPieces: bodyPieceCount,
          bodyBytes: job.bytes,
        },
      });
      return { outcome, result: "refused" };
    }
    case "close": {
      await storeClosePieces(ctx, key, "stakes", verdict.arrays.bets.pieces);
      await storeClosePieces(ctx, key, "coefficients", verdict.arrays.cashOutCoefficients.pieces);
      const storedClose = {
        roundId: verdict.roundId,
        providerTxId: verdict.providerTxId,
        game: verdict.game,
        ...(verdict.currency === undefined ? {} : { currency: verdict.currency }),
        betCount: verdict.arrays.count,
      };
      const { reply } = await callLedger(deps.route, {
        op: "deposit",
        tenantId: job.tenantId,
        body: { action: "CLOSE_ROUND", action_id: verdict.roundId },
        rawBody: JSON.stringify({ action: "CLOSE_ROUND", ...storedClose }),
        bodySha256: job.bodySha256,
        storedClose,
        budgetMs: ROUND_CLOSE_WAIT_MS,
      });
      if (!reply) return { outcome: transientFailure, result: "failed" };
      // Closed by another close (or this key by another body): these pieces are nobody's.
      if (reply.replayed || reply.status !== 200) await dropUnusedClosePieces(ctx.db, key, verdict.roundId);
      return {
        outcome: { status: reply.status, body: reply.body, replayed: reply.replayed },
        result: "closed",
      };
    }
  }
}
