import type { WalletState } from "@wallet/ledger/testing/wallet-model/state";
import { isAnswered, type Operation } from "../history/operation.ts";
import { DEFAULT_STEP_BUDGET, linearize } from "./linearize.ts";
import { byInvocation } from "./player-start.ts";

/** The smallest sub-history found that still has no linearization, and the wallet it starts from. */
export interface Witness {
  /** Operations of the shortest failing prefix (by invocation). */
  prefix: number;
  /** Of those, how many were folded into `start` (they all completed before the rest began). */
  folded: number;
  /** The wallet before `operations`: the opening one, with the folded operations applied. */
  start: WalletState;
  operations: Operation[];
}

/**
 * Shrinks one player's violating history: the shortest prefix by invocation that has no linearization
 * (by bisection: exact when answered operations do not overlap, a local minimum otherwise); then its
 * operations up to the last quiet point, where every earlier one had been answered, are folded into the
 * start state (any order the search finds for them leads to a state the rest cannot follow); then the
 * rest is delta-debugged, halves, quarters, … single operations dropped while it still has none.
 *
 * Dropping an operation shifts every later balance, so the witness shows an answer the model cannot
 * give from `start`; the fold keeps `start` the balance just before it, which is where a reader looks.
 */
export function smallestViolation(
  operations: readonly Operation[],
  opening: WalletState,
  stepBudget = DEFAULT_STEP_BUDGET,
): Witness {
  const sorted = [...operations].sort(byInvocation);
  const fails = (sub: readonly Operation[], start: WalletState) =>
    linearize(sub, start, stepBudget).verdict === "violation";
  const prefix = sorted.slice(
    0,
    shortestFailingPrefix(sorted.length, (length) => fails(sorted.slice(0, length), opening)),
  );
  const { folded, start, rest } = foldQuietFront(prefix, opening, stepBudget);
  return {
    prefix: prefix.length,
    folded,
    start,
    operations: dropWhileFailing(rest, (sub) => fails(sub, start)),
  };
}

/** Bisection between the empty prefix (which passes) and the whole history (which fails). */
function shortestFailingPrefix(length: number, failsAt: (length: number) => boolean): number {
  let passing = 0;
  let failing = length;
  while (failing - passing > 1) {
    const middle = Math.floor((passing + failing) / 2);
    if (failsAt(middle)) failing = middle;
    else passing = middle;
  }
  return failing;
}

/**
 * Folds the longest front of the prefix whose answered operations all completed before any later
 * operation was invoked: every linearization places them first. Its unanswered operations that the
 * front's linearization left out go on with the rest (they may take effect later). Whatever order the
 * search finds for the front, the rest cannot follow it, or the whole prefix would have a linearization.
 */
function foldQuietFront(
  prefix: readonly Operation[],
  opening: WalletState,
  stepBudget: number,
): { folded: number; start: WalletState; rest: Operation[] } {
  const laterInvocation: number[] = new Array(prefix.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let index = prefix.length - 1; index >= 0; index -= 1)
    laterInvocation[index] = Math.min(prefix[index]?.invokedAt ?? 0, laterInvocation[index + 1] ?? 0);
  const cuts: number[] = [];
  let completedBy = Number.NEGATIVE_INFINITY;
  for (let cut = 1; cut < prefix.length; cut += 1) {
    const operation = prefix[cut - 1] as Operation;
    if (isAnswered(operation))
      completedBy = Math.max(completedBy, operation.completedAt ?? Number.POSITIVE_INFINITY);
    if (completedBy < (laterInvocation[cut] ?? 0)) cuts.push(cut);
  }
  for (const cut of cuts.reverse()) {
    const front = prefix.slice(0, cut);
    const found = linearize(front, opening, stepBudget);
    if (found.verdict !== "linearizable" || !found.state) continue;
    const placed = new Set(found.order);
    const carried = front.filter((operation) => !isAnswered(operation) && !placed.has(operation.id));
    return { folded: cut - carried.length, start: found.state, rest: [...carried, ...prefix.slice(cut)] };
  }
  return { folded: 0, start: opening, rest: [...prefix] };
}

/** Delta debugging: drop chunks of halving size, then single operations until none can go. */
function dropWhileFailing(operations: readonly Operation[], fails: (sub: readonly Operation[]) => boolean) {
  let kept = [...operations];
  let chunk = Math.max(1, Math.floor(kept.length / 2));
  for (;;) {
    let dropped = false;
    for (let start = 0; start < kept.length; ) {
      const candidate = [...kept.slice(0, start), ...kept.slice(start + chunk)];
      if (candidate.length < kept.length && fails(candidate)) {
        kept = candidate;
        dropped = true;
      } else start += chunk;
    }
    if (chunk > 1) chunk = Math.max(1, Math.floor(chunk / 2));
    else if (!dropped) return kept;
  }
}
