import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import type { Outcome } from "../outcome.ts";
import { multiStatementTransaction } from "./multi-statement.ts";
import { readBatch } from "./reads.ts";
import type { BatchRequest } from "./requests.ts";
import { decide } from "./rules.ts";
import { writeBatch } from "./writes.ts";

/** One job's end: its answer, or the error that kept it from one (the worker answers 503). */
export type Settled = { ok: true; outcome: Outcome } | { ok: false; error: unknown };

/**
 * Group commit: the jobs (different players, as their partitions guarantee, though the rules would
 * hold either way) as ONE transaction of two round trips: read and lock, decide each job
 * in TypeScript, write set-based, commit. Each job's refusal is its own. A deadlock reruns the
 * batch; any other SQL error rolls it back and reruns its jobs one by one, so a job that breaks a
 * batch fails alone and its neighbours still get their answers.
 */
export async function runBatch(ctx: LedgerContext, jobs: BatchRequest[]): Promise<Settled[]> {
  if (jobs.length === 0) return [];
  try {
    return (await batchTransaction(ctx, jobs)).map((outcome) => ({ ok: true, outcome }));
  } catch (error) {
    if (jobs.length === 1) return [{ ok: false, error }];
    const settled: Settled[] = [];
    for (const job of jobs) {
      try {
        const [outcome] = await batchTransaction(ctx, [job]);
        settled.push(outcome ? { ok: true, outcome } : { ok: false, error: new Error("no outcome") });
      } catch (alone) {
        settled.push({ ok: false, error: alone });
      }
    }
    return settled;
  }
}

function batchTransaction(ctx: LedgerContext, jobs: BatchRequest[]): Promise<Outcome[]> {
  return multiStatementTransaction(
    ctx,
    async (connection) => {
      const state = await readBatch(connection, jobs);
      await ctx.testHooks?.afterBatchRead?.(jobs);
      const outcomes = jobs.map((job) => decide(state, job));
      const hook = ctx.testHooks?.beforeBatchCommit;
      await writeBatch(connection, state.writes, hook && (() => hook(jobs.length)));
      return outcomes;
    },
    // A job alone that hits a duplicate key lost a race with a twin: its rerun finds the twin's answer.
    (error) => jobs.length === 1 && mysqlErrno(error) === ER_DUP_ENTRY,
  );
}
