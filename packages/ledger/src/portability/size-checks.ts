import {
  type ProductLimits,
  productLimits,
  type StatementBudget,
  statementBudgets,
  transactionBudgets,
} from "./size-budgets.ts";
import { budgetShare, maxEntry, smallestPacket, smallestTransaction } from "./size-limits.ts";

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

/**
 * Every budget over its share of the smallest limit of the three servers, one line each, starting
 * with the budget's name: a statement over half MariaDB's 16 MiB `max_allowed_packet`, a transaction
 * over half of min(TiDB's 100 MiB, Group Replication's 150,000,000 bytes), a row over half TiDB's
 * 6 MiB entry. Empty: every budget fits (`size-budgets.test.ts` holds it so; issue 42 fixed the last
 * ones: an audit line's detail, a batch's bytes, a side-effect transaction's players, the relay's
 * summaries and the outbox's retention chunk).
 */
export function overBudget(limits: ProductLimits = productLimits): string[] {
  const packet = budgetShare * smallestPacket;
  const transaction = budgetShare * smallestTransaction;
  const entry = budgetShare * maxEntry.bytes;
  return [
    ...statementBudgets(limits)
      .filter((budget) => budget.bytes > packet)
      .map(
        (budget) => `${budget.name}: ${mib(budget.bytes)} a statement, over ${mib(packet)} (${budget.bound})`,
      ),
    ...transactionBudgets(limits).flatMap((budget) => [
      ...(budget.bytes > transaction
        ? [`${budget.name}: ${mib(budget.bytes)} a transaction, over ${mib(transaction)} (${budget.bound})`]
        : []),
      ...(budget.largestRow > entry
        ? [`${budget.name}: a row of ${mib(budget.largestRow)}, over ${mib(entry)} (${budget.bound})`]
        : []),
    ]),
  ];
}

/** A captured statement shape above this with no budget fails the gate. */
export const unbudgetedThreshold = 64 * 1024;
/**
 * How much larger a statement is as the general log keeps it than as it was sent: the log (a CSV
 * table of utf8mb3 text) writes a byte that is not UTF-8 as `\xNN` and doubles each backslash, 5
 * bytes for one (run here: a close piece of 131,072 such bytes was logged as 655,555 bytes).
 */
export const loggedGrowth = 5;

export interface BudgetedShape {
  budget: StatementBudget;
  /** The largest statement of any shape it covers, as logged. */
  largest: number;
  shapes: number;
}

/** The captured shapes against the statement budgets: each budget's largest, and what breaks the gate. */
export function sizeReport(
  shapes: Map<string, { maxBytes: number }>,
  budgets: StatementBudget[] = statementBudgets(),
): { budgeted: BudgetedShape[]; problems: string[] } {
  const budgeted = new Map<StatementBudget, BudgetedShape>();
  const problems: string[] = [];
  for (const [shape, { maxBytes }] of shapes) {
    const budget = budgets.find((candidate) => candidate.shapes.test(shape));
    if (!budget) {
      if (maxBytes > unbudgetedThreshold)
        problems.push(`no size budget for a shape of ${maxBytes} bytes: ${shape.slice(0, 300)}`);
      continue;
    }
    const seen = budgeted.get(budget) ?? { budget, largest: 0, shapes: 0 };
    seen.largest = Math.max(seen.largest, maxBytes);
    seen.shapes += 1;
    budgeted.set(budget, seen);
    if (maxBytes > loggedGrowth * budget.bytes)
      problems.push(
        `${budget.name}: ${maxBytes} bytes logged, over its budget (${budget.bytes} × ${loggedGrowth}): ${shape.slice(0, 300)}`,
      );
  }
  return { budgeted: [...budgeted.values()], problems };
}
