import type { JournalLine } from "@wallet/ledger/testing/campaign-reads";
import { adjustmentKey } from "@wallet/ledger/verbs/adjust-balance";
import type { Operation } from "../history/operation.ts";

/**
 * Rule 2, second half: the journal holds no line that no request explains. A line is explained by
 * the player's opening (written when the campaign created the player), by an operation of the
 * history under the same tenant and key (answered or not: an unanswered one may have happened), and
 * an adjustment by the operator's call with its reference. One key explains one line of its kind:
 * a second is a double.
 */
export function unexplainedLines(lines: JournalLine[], history: Operation[]): string[] {
  const keys = new Set<string>();
  for (const op of history) {
    if (op.key === null) continue;
    const key = op.kind === "adjust" ? adjustmentKey(op.key) : op.key;
    keys.add(`${op.operatorId}:${key}`);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    if (line.kind === "OPENING") continue;
    const key = `${line.tenantId}:${line.providerTxId}`;
    if (line.providerTxId === null || !keys.has(key)) {
      problems.push(
        `journal line ${line.operatorTxId} (${line.kind} ${line.amount} for ${line.userId}, key ${line.providerTxId}): no request sent it`,
      );
      continue;
    }
    const once = `${key}:${line.kind}`;
    if (seen.has(once)) problems.push(`journal: two ${line.kind} lines under ${key}`);
    seen.add(once);
  }
  return problems;
}
