import { createHash } from "node:crypto";
import type { BatchRequest } from "@wallet/ledger/batch/requests";
import type { LedgerContext, LedgerTestHooks } from "@wallet/ledger/context";
import type { Outcome } from "@wallet/ledger/outcome";

/**
 * TEST HOOKS. Planted bugs for the fault campaign (faults/src/campaign): with `TEST_PLANTED_BUG` set,
 * the worker breaks one guarantee on purpose, at the place where that bug would really live, so a
 * test can show that the campaign's checker catches it. Two keys, as the crash points
 * (`test-crash-points.ts`): the worker refuses the variable unless NODE_ENV=test, which no deployment
 * sets. Unset, no hook exists and every path is production's.
 */
export const plantedBugs = [
  /** Resent BETs and WINs are decided again and move money twice (no stored-answer lookup, no unique key stops them). */
  "skip-idempotency-lookup",
  /** One money line in 50 (by its provider_tx_id) is never journalled, while its balance moves. */
  "skip-journal-line",
  /** A partition runs 4 jobs at once and batches read wallets unlocked: a player's calls interleave on a stale balance. */
  "early-partition-unlock",
  /** One CLOSE_ROUND in 10 (by its round) commits without its outbox row: its four side effects never happen. */
  "skip-outbox-row",
  /** Answers go out before COMMIT, and a call in 20 (by its provider_tx_id) is then rolled back: acknowledged, never stored. */
  "reply-before-commit",
  /** The batch's transaction sent as before issue 41 (no autocommit off, no savepoint): an abort mid-packet leaves its rest committed, answered OK. */
  "unguarded-packet",
] as const;
export type PlantedBug = (typeof plantedBugs)[number];

/**
 * How often the counted bugs fire: one key in N, chosen by the key's SHA-256, so the same traffic
 * breaks the same way on every worker, in every batching and after any restart.
 */
export const plantedBugRates = { journalLine: 50, closeOutbox: 10, rollback: 20 } as const;

/**
 * The jobs of one partition that may run at once across the workers (each partition's BullMQ global
 * concurrency): 1, the per-player serialization, but under `early-partition-unlock`.
 */
export function partitionJobsAtOnce(bug: PlantedBug | undefined): number {
  return bug === "early-partition-unlock" ? 4 : 1;
}

/** Whether a planted bug with rate `n` fires for `key`: the first 32 bits of its SHA-256, mod n, are 0. */
export function selectedOneIn(n: number, key: string): boolean {
  return createHash("sha256").update(key).digest().readUInt32BE(0) % n === 0;
}

/** The ledger's hooks for a planted bug that lives in the ledger (`LedgerTestHooks`); none for the others. */
export function plantedLedgerHooks(bug: PlantedBug | undefined): LedgerTestHooks {
  switch (bug) {
    case "skip-idempotency-lookup":
      return { skipIdempotencyLookup: true };
    case "skip-journal-line":
      return {
        dropJournalLine: (line) => selectedOneIn(plantedBugRates.journalLine, line.providerTxId),
      };
    case "early-partition-unlock":
      return { unlockedWalletRead: true };
    case "unguarded-packet":
      return { unguardedPacket: true };
    case "skip-outbox-row":
      // The close's own row, not a late line's (`late:…`), which brings a closed round's effects up to date.
      return {
        dropOutboxRow: (row) =>
          row.eventId.startsWith("close-round:") && selectedOneIn(plantedBugRates.closeOutbox, row.eventId),
      };
    default:
      return {};
  }
}

/** Thrown before COMMIT by `reply-before-commit`: the batch rolls back after its answers went out. */
export class PlantedRollback extends Error {
  constructor() {
    super("planted bug reply-before-commit: batch rolled back after its answers were sent");
    this.name = "PlantedRollback";
  }
}

/**
 * `reply-before-commit`: the context for one group-committed batch, whose hook sends the batch's
 * answers (`send`: logged and published, as the group commit does after COMMIT) once the writes are
 * sent and before COMMIT, then rolls back a batch holding a selected call. The batch's calls are
 * then rerun one by one, as after any failed batch (`runBatch`): the selected call is rolled back
 * again and answered 503 too late (its 200 already left), its neighbours commit under a second answer.
 */
export function repliesBeforeCommit(
  ctx: LedgerContext,
  send: (requests: readonly BatchRequest[], outcomes: readonly Outcome[]) => Promise<void>,
): LedgerContext {
  const earlier = ctx.testHooks?.beforeBatchCommit;
  return {
    ...ctx,
    testHooks: {
      ...ctx.testHooks,
      beforeBatchCommit: async (requests, outcomes) => {
        await earlier?.(requests, outcomes);
        await send(requests, outcomes);
        const rolledBack = (request: BatchRequest) =>
          request.kind !== "BALANCE" &&
          selectedOneIn(plantedBugRates.rollback, request.request.provider_tx_id);
        if (requests.some(rolledBack)) throw new PlantedRollback();
      },
    },
  };
}
