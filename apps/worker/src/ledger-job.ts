import { isCloseRound } from "@wallet/contracts/close-refusal";
import type { LedgerCall, LedgerJob } from "@wallet/contracts/jobs";
import { actionLabel } from "@wallet/contracts/wallet-request";
import { type Call, settle } from "@wallet/ledger/calls/call";
import { runAlone } from "@wallet/ledger/calls/run-alone";
import { runInOrder } from "@wallet/ledger/calls/run-in-order";
import { currentTraceparent } from "@wallet/telemetry/spans";
import { acknowledgedAlone } from "./acknowledged.ts";
import {
  expiredAt,
  type GroupCommit,
  type GroupCommitDeps,
  type OutcomeOrExpiry,
  outcomeOrRetry,
  replyOf,
} from "./group-commit.ts";
import { resultOf } from "./outcome-label.ts";

/** A job's call with its body parsed: what the ledger runs. */
type JobCall = LedgerCall & Call;

/**
 * Runs one job's calls in their order (`runInOrder`): group-committed calls go to the process's
 * group commit, where the partitions' calls share a transaction; a rare verb runs alone, after the
 * calls before it and before those after it, so a player's callbacks always apply in order. A call
 * past its deadline is refused unrun: its gateway has already answered 503 and the platform will
 * retry it. Returns whether every call had expired.
 */
export function jobRunner(deps: GroupCommitDeps, commit: GroupCommit) {
  const { metrics, logger, clock } = deps;

  const parse = (call: LedgerCall, partition: number): JobCall => {
    if (call.enqueuedAt !== undefined)
      metrics.queueWait.observe(
        { partition: String(partition) },
        Math.max(0, clock.now() - call.enqueuedAt) / 1000,
      );
    let body: unknown;
    try {
      body = JSON.parse(call.rawBody);
    } catch {
      body = undefined; // the verb's validation answers 400
    }
    // The job's span is active here: a CLOSE_ROUND's side effects link back to it.
    return { ...call, body, traceparent: currentTraceparent() };
  };

  const alone = async (call: JobCall, replyTo: string, partition: number): Promise<OutcomeOrExpiry> => {
    // A close run alone is a refused one, stored before its 400: its round's only trace, run however late.
    const expired = expiredAt(call, clock.now(), isCloseRound(call.body));
    if (expired) return expired;
    // Run in the job's span (active here): the verb's statements are its children.
    const outcome = outcomeOrRetry(logger, call.op, await settle(runAlone(deps.ctx, call)));
    await deps.answers.send([
      { ...replyOf(call, replyTo, outcome), partition, acknowledged: acknowledgedAlone(call, outcome) },
    ]);
    return { expired: false, outcome };
  };

  const count = (call: JobCall, end: OutcomeOrExpiry, startedAt: number) => {
    const { op } = call;
    const labels = { op, action: actionLabel(call.body) };
    if (end.expired) {
      metrics.outcomes.inc({ ...labels, result: "expired", status: "none" });
      logger.warn({ op, late: end.lateMs }, "call past its deadline refused");
      return;
    }
    metrics.jobDuration.observe({ op }, (performance.now() - startedAt) / 1000);
    metrics.outcomes.inc({ ...labels, result: resultOf(end.outcome), status: String(end.outcome.status) });
    for (const kind of end.outcome.anomalies ?? []) metrics.anomalies.inc({ kind });
  };

  return async (job: LedgerJob, partition: number): Promise<{ allExpired: boolean }> => {
    const startedAt = performance.now();
    const traceparent = currentTraceparent();
    const calls = job.calls.map((call) => parse(call, partition));
    const ends = await runInOrder(calls, {
      group: (run) =>
        commit.submit(
          run.map(({ call, plan }) => ({ call, partition, replyTo: job.replyTo, traceparent, plan })),
        ),
      alone: (call) => alone(call, job.replyTo, partition),
    });
    calls.forEach((call, index) => {
      count(call, ends[index] as OutcomeOrExpiry, startedAt);
    });
    return { allExpired: ends.every((end) => end.expired) };
  };
}
