import { isAnswered, type Operation } from "../history/operation.ts";
import { DEFAULT_STEP_BUDGET, linearize, type Verdict } from "./linearize.ts";
import { historiesByPlayer, openingState, type PlayerStart, playerKey } from "./player-start.ts";
import { smallestViolation, type Witness } from "./shrink.ts";

/** Checker rule 1 for one player. */
export interface PlayerVerdict {
  operatorId: number;
  userId: string;
  verdict: Verdict;
  /** The player's operations checked (unanswered reads left out: they change nothing). */
  operations: number;
  steps: number;
  /** Why the verdict is "unknown". */
  reason?: string;
  /** For a violation: the smallest sub-history found that shows it. */
  witness?: Witness;
}

export interface HistoryVerdict {
  players: PlayerVerdict[];
  violations: PlayerVerdict[];
  /** Players the search could not decide within its budget (or had no start for): never a pass. */
  unknown: PlayerVerdict[];
}

export interface CheckOptions {
  /** Model steps allowed per player before the verdict is "unknown". */
  stepBudget?: number;
  /** Shrink each violation to a witness (default true). */
  shrink?: boolean;
}

/**
 * Checker rule 1: per player, the acknowledged operations admit one sequential order, consistent with
 * real time, in which the wallet model produces every acknowledged status and balance; unanswered
 * operations may or may not have happened, but at most once.
 */
export function checkHistory(
  history: readonly Operation[],
  starts: readonly PlayerStart[],
  options: CheckOptions = {},
): HistoryVerdict {
  const startOf = new Map(starts.map((start) => [playerKey(start.operatorId, start.userId), start]));
  const players = historiesByPlayer(history).map(({ operatorId, userId, operations }) => {
    const start = startOf.get(playerKey(operatorId, userId));
    const checked = operations.filter(changesOrAnswers);
    if (!start) {
      const reason = "no PlayerStart for this player";
      return {
        operatorId,
        userId,
        verdict: "unknown" as const,
        operations: checked.length,
        steps: 0,
        reason,
      };
    }
    return checkPlayer(operatorId, userId, checked, start, options);
  });
  return {
    players,
    violations: players.filter((player) => player.verdict === "violation"),
    unknown: players.filter((player) => player.verdict === "unknown"),
  };
}

export function checkPlayer(
  operatorId: number,
  userId: string,
  operations: readonly Operation[],
  start: PlayerStart,
  options: CheckOptions = {},
): PlayerVerdict {
  const stepBudget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
  const opening = openingState(start);
  const { verdict, steps } = linearize(operations, opening, stepBudget);
  const verdictOf = { operatorId, userId, verdict, operations: operations.length, steps };
  if (verdict === "unknown") return { ...verdictOf, reason: `no decision within ${stepBudget} model steps` };
  if (verdict === "linearizable" || options.shrink === false) return verdictOf;
  return { ...verdictOf, witness: smallestViolation(operations, opening, stepBudget) };
}

/** An unanswered read (/balance, /auth) changes nothing whenever it ran: no need to place it. */
const changesOrAnswers = (operation: Operation) =>
  isAnswered(operation) || (operation.kind !== "balance" && operation.kind !== "auth");
