import type { Operation } from "../history/operation.ts";
import type { Violation } from "../verdict.ts";

export interface PlayerStart {
  balance: bigint;
  maxbet: bigint;
  freeBets: number;
}

/**
 * Rule 1 (to be replaced by the model checker's search when it lands): per player, the history's
 * operations in one order consistent with real time, the model producing every acknowledged answer.
 */
export function linearizabilityViolations(
  _history: Operation[],
  _starts: Map<string, PlayerStart>,
): { violations: Violation[]; unknown: string[] } {
  return { violations: [], unknown: [] };
}
