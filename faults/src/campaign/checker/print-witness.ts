import type { Operation } from "../history/operation.ts";
import type { PlayerVerdict } from "./check-history.ts";
import type { Witness } from "./shrink.ts";

/** One player's verdict for the campaign's report: a line, then the witness of a violation. */
export function printPlayerVerdict(player: PlayerVerdict): string {
  const line =
    `player ${player.operatorId}/${player.userId}: ${player.verdict} (${player.operations} operations, ` +
    `${player.steps} model steps${player.reason ? `; ${player.reason}` : ""})`;
  return player.witness ? `${line}\n${printWitness(player.witness)}` : line;
}

/**
 * A witness for the violation report, one operation a line: times in ms from the first invocation
 * (invoked..completed, `…` when never answered), kind, key, round, bet, amount, status and balance.
 */
export function printWitness(witness: Witness): string {
  const { start } = witness;
  const header =
    `start: balance ${start.balance}, free bets ${start.freeBets}` +
    (witness.folded > 0
      ? ` (after the first ${witness.folded} of a ${witness.prefix}-operation failing prefix)`
      : "");
  const origin = Math.min(...witness.operations.map((operation) => operation.invokedAt));
  return [header, ...witness.operations.map((operation) => printOperation(operation, origin))].join("\n");
}

export function printOperation(operation: Operation, origin: number): string {
  const completed = operation.completedAt === null ? "…" : `${operation.completedAt - origin}`;
  const fields = [
    `+${operation.invokedAt - origin}..${completed}ms`.padEnd(16),
    `#${operation.id}`.padEnd(7),
    operation.kind.padEnd(15),
    operation.key === null ? "" : `key=${operation.key}`,
    operation.roundId === null ? "" : `round=${operation.roundId}`,
    operation.betKey === null ? "" : `bet=${operation.betKey}`,
    operation.amount === null ? "" : `amount=${operation.amount}`,
    operation.count === undefined ? "" : `count=${operation.count}`,
    `→ ${operation.status === 0 ? "no answer" : operation.status}`,
    operation.balance === null ? "" : `balance=${operation.balance}`,
  ];
  return fields.filter((field) => field !== "").join(" ");
}
