import type { OutcomeOrError } from "../calls/call.ts";
import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import type { Outcome } from "../outcome.ts";
import { multiStatementTransaction } from "../sql/multi-statement.ts";
import { readBatch } from "./reads.ts";
import type { BatchRequest } from "./requests.ts";
import { decide } from "./rules/decide.ts";
import { writeBatch } from "./writes.ts";

/**
 * Group commit: the calls (of different players, as their partitions guarantee, though the rules
 * would hold either way) as ONE transaction of two round trips: read and lock, decide each call in
 * TypeScript, write set-based, commit. Each call's refusal is its own. A deadlock reruns the batch;
 * any other SQL error rolls it back and reruns its calls one by one, so a call that breaks a batch
 * fails alone and its neighbours still get their answers. The calls rerun alone share the batch's
 * retry budget (`conflict-retry.ts`): past it, each gets the configured attempts and no more, so a
 * batch that keeps losing its conflicts holds the worker's group commit up at most the budget longer
 * than it did before there was one.
 */
export async function runBatch(ctx: LedgerContext, requests: BatchRequest[]): Promise<OutcomeOrError[]> {
  if (requests.length === 0) return [];
  const startedAt = performance.now();
  try {
    return (await batchTransaction(ctx, requests, startedAt)).map((outcome) => ({ ok: true, outcome }));
  } catch (error) {
    if (requests.length === 1) return [{ ok: false, error }];
    const settled: OutcomeOrError[] = [];
    for (const request of requests) {
      try {
        const [outcome] = await batchTransaction(ctx, [request], startedAt);
        settled.push(outcome ? { ok: true, outcome } : { ok: false, error: new Error("no outcome") });
      } catch (alone) {
        settled.push({ ok: false, error: alone });
      }
    }
    return settled;
  }
}

function batchTransaction(
  ctx: LedgerContext,
  requests: BatchRequest[],
  startedAt: number,
): Promise<Outcome[]> {
  return multiStatementTransaction(
    ctx,
    async (connection) => {
      const hooks = ctx.testHooks;
      const state = await readBatch(connection, requests, hooks);
      await hooks?.afterBatchRead?.(requests);
      const outcomes = requests.map((request) => decide(state, request));
      const beforeCommit = hooks?.beforeBatchCommit;
      await writeBatch(
        connection,
        state.writes,
        hooks && {
          ...hooks,
          beforeCommit: beforeCommit && (() => beforeCommit(requests, outcomes)),
        },
      );
      return outcomes;
    },
    // A call alone that hits a duplicate key lost a race with a twin: its rerun finds the twin's answer.
    (error) => requests.length === 1 && mysqlErrno(error) === ER_DUP_ENTRY,
    startedAt,
  );
}
