import type { Operation } from "./history/operation.ts";
import { formatSchedule } from "./schedule/plan.ts";
import type { CampaignVerdict } from "./verdict.ts";

/** One line per operation of a witness: time from the first, kind, key, amount, answer. */
export function formatOperations(ops: Operation[]): string[] {
  const first = ops[0]?.invokedAt ?? 0;
  return ops.map((op) => {
    const span = `+${op.invokedAt - first}..${op.completedAt === null ? "never" : `+${op.completedAt - first}`} ms`;
    const what = [op.kind, op.userId ?? op.roundId, op.key, op.amount === null ? "" : `amount ${op.amount}`]
      .filter(Boolean)
      .join(" ");
    const answer = op.status === 0 ? "no answer" : `${op.status}${op.balance === null ? "" : ` balance ${op.balance}`}`;
    return `    #${op.id} ${span} ${what} → ${answer} (${op.attempts} sends)`;
  });
}

/** What a campaign prints at its end: the verdict; for a violation, the seed, the schedule and the smallest sub-history. */
export function formatVerdict(verdict: CampaignVerdict): string {
  const head = `seed ${verdict.seed}${verdict.plantedBug ? ` (planted: ${verdict.plantedBug})` : ""}: ${verdict.violations.length === 0 ? "PASS" : "FAIL"}, ${verdict.violations.length} violations, ${verdict.operations.total} operations, ${verdict.schedule.faults.length} faults, ${verdict.seconds} s`;
  if (verdict.violations.length === 0) return head;
  const shown = verdict.violations.slice(0, 20).flatMap((violation) => [
    `  [rule ${violation.rule}] ${violation.message}`,
    ...(violation.witness ? formatOperations(violation.witness) : []),
  ]);
  const more = verdict.violations.length > 20 ? [`  … and ${verdict.violations.length - 20} more (verdict.json)`] : [];
  return [head, ...shown, ...more, formatSchedule(verdict.schedule), `replay: pnpm test:campaign --seed ${verdict.seed} --minutes ${verdict.minutes} --topology ${verdict.schedule.topology}${verdict.plantedBug ? ` --planted-bug ${verdict.plantedBug}` : ""}`].join("\n");
}
