import { describe, expect, it } from "vitest";
import type { Operation } from "../history/operation.ts";
import { checkHistory } from "./check-history.ts";
import { generatedHistory } from "./generated-history.ts";
import { linearize } from "./linearize.ts";
import { openingState } from "./player-start.ts";
import { printWitness } from "./print-witness.ts";
import { smallestViolation } from "./shrink.ts";

/** A 500-operation history where, from one answered BET on, every reported balance is one stake lower. */
function doubleDebitPlanted() {
  const { operations, start } = generatedHistory(41, 500);
  const bet = operations.find(
    (operation) =>
      operation.id >= 250 &&
      operation.kind === "BET" &&
      operation.status === 200 &&
      operation.balance !== null,
  ) as Operation;
  const stake = bet.amount ?? 0;
  const planted = operations.map((operation) =>
    operation.invokedAt > (bet.completedAt ?? 0) && operation.balance !== null
      ? { ...operation, balance: operation.balance - stake }
      : operation,
  );
  const firstAffected = planted.find(
    (operation) => operation.invokedAt > (bet.completedAt ?? 0) && operation.balance !== null,
  ) as Operation;
  return { operations: planted, start, bet, firstAffected };
}

describe("the smallest sub-history that shows a violation", () => {
  it("shrinks a double debit planted in a 500-operation history to the first answer that shows it", () => {
    const { operations, start, bet, firstAffected } = doubleDebitPlanted();
    expect(linearize(generatedHistory(41, 500).operations, openingState(start)).verdict).toBe("linearizable");

    const { violations } = checkHistory(operations, [start]);
    expect(violations).toHaveLength(1);
    const witness = violations[0]?.witness;
    expect(witness?.operations.length).toBeLessThanOrEqual(3);
    expect(witness?.operations.map((operation) => operation.id)).toContain(firstAffected.id);
    // The operations before it are folded into the start: the wallet just after the planted BET.
    expect(witness?.prefix).toBeLessThanOrEqual(firstAffected.id + 3);
    expect(witness?.start.balance).toBe(
      BigInt(bet.balance ?? 0) + adjustmentsBetween(operations, bet, firstAffected),
    );
    // And the witness alone still has no linearization.
    expect(linearize(witness?.operations ?? [], witness?.start ?? openingState(start)).verdict).toBe(
      "violation",
    );
  });

  it("prints the witness one operation a line, times from its first invocation", () => {
    const { operations, start } = doubleDebitPlanted();
    const witness = smallestViolation(operations, openingState(start));
    const lines = printWitness(witness).split("\n");
    expect(lines[0]).toMatch(
      /^start: balance \d+, free bets \d+ \(after the first \d+ of a \d+-operation failing prefix\)$/,
    );
    expect(lines).toHaveLength(witness.operations.length + 1);
    expect(lines[1]).toMatch(/^\+0\.\.\d+ms +#\d+ +\S+ .*→ \d{3}/);
  });
});

/** Concurrent adjustments folded with the BET move the start too. */
function adjustmentsBetween(operations: readonly Operation[], bet: Operation, until: Operation): bigint {
  return operations
    .filter(
      (operation) =>
        operation.kind === "adjust" &&
        operation.status === 201 &&
        operation.invokedAt > (bet.completedAt ?? 0) &&
        operation.id < until.id &&
        (operation.completedAt ?? 0) < until.invokedAt,
    )
    .reduce((sum, operation) => sum + BigInt(operation.amount ?? 0), 0n);
}
