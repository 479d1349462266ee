import { checkHistory } from "../checker/check-history.ts";
import type { PlayerStart } from "../checker/player-start.ts";
import { printWitness } from "../checker/print-witness.ts";
import type { Operation } from "../history/operation.ts";
import type { Violation } from "../verdict.ts";

/**
 * Rule 1 (`../checker/`): per player, one order of the answered operations, consistent with real
 * time, in which the wallet model gives every answer; each violation with its smallest witness, each
 * player the search could not decide named (never a pass).
 */
export function linearizabilityViolations(
  history: Operation[],
  starts: PlayerStart[],
): { violations: Violation[]; unknown: string[] } {
  const verdict = checkHistory(history, starts);
  return {
    violations: verdict.violations.map((player) => ({
      rule: "1 linearizable",
      message: `player ${player.operatorId}/${player.userId}: no order of its ${player.operations} operations consistent with real time gives every answer it got`,
      ...(player.witness ? { witness: printWitness(player.witness) } : {}),
    })),
    unknown: verdict.unknown.map(
      (player) => `${player.operatorId}/${player.userId}: ${player.reason ?? "undecided"}`,
    ),
  };
}
