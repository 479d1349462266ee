import type { BatchRequest } from "../batch/requests.ts";
import type { Call, OutcomeOrError } from "./call.ts";
import { type CallPlan, type GroupPlan, planCall } from "./plan.ts";

/** A call with where it runs. */
export interface Planned<C extends Call = Call, P extends CallPlan = CallPlan> {
  call: C;
  plan: P;
}

/** How the caller runs each kind of run: the worker passes its group commit, tests the plain batch. */
export interface Runners<C extends Call, E> {
  /** Calls between two rare verbs, as one group-committed transaction: one end per call, in order. */
  group: (run: Array<Planned<C, GroupPlan>>) => Promise<E[]>;
  /** A rare verb, in its own transaction. */
  alone: (call: C) => Promise<E>;
}

/**
 * Runs one caller's calls in their order: everything between two rare verbs together, each rare verb
 * on its own in between. Running the runs one after the other keeps a player's callbacks in order
 * even where one of them runs alone. Ends come back in the calls' order.
 */
export async function runInOrder<C extends Call, E>(calls: C[], runners: Runners<C, E>): Promise<E[]> {
  const ends: E[] = [];
  for (const run of inOrderRuns(calls.map((call) => ({ call, plan: planCall(call) })))) {
    const [head] = run;
    if (head && head.plan.run === "alone") ends.push(await runners.alone(head.call));
    else ends.push(...(await runners.group(run as Array<Planned<C, GroupPlan>>)));
  }
  return ends;
}

/** The calls as runs: consecutive group-committed calls together, each rare verb alone. */
function inOrderRuns<C extends Call>(planned: Array<Planned<C>>): Array<Array<Planned<C>>> {
  const runs: Array<Array<Planned<C>>> = [];
  for (const item of planned) {
    const last = runs.at(-1);
    const head = last?.[0];
    if (last && head && item.plan.run !== "alone" && head.plan.run !== "alone") last.push(item);
    else runs.push([item]);
  }
  return runs;
}

/**
 * A group-committed run's outcomes: `runBatch` answers the batch requests (in order), and the calls
 * already answered (a body that failed its schema) keep their answer in their place.
 */
export async function settleRun(
  plans: GroupPlan[],
  runBatch: (requests: BatchRequest[]) => Promise<OutcomeOrError[]>,
): Promise<OutcomeOrError[]> {
  const requests: BatchRequest[] = [];
  for (const plan of plans) if (plan.run === "batch") requests.push(plan.request);
  const batched = requests.length > 0 ? await runBatch(requests) : [];
  let next = 0;
  return plans.map(
    (plan): OutcomeOrError =>
      plan.run === "answered"
        ? { ok: true, outcome: plan.outcome }
        : (batched[next++] ?? { ok: false, error: new Error("no outcome") }),
  );
}
