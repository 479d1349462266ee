import { formatSchedule } from "./schedule/plan.ts";
import type { CampaignVerdict } from "./verdict.ts";

/** What a campaign prints at its end: the verdict; for a violation, the seed, the schedule and the smallest sub-history. */
export function formatVerdict(verdict: CampaignVerdict): string {
  const head = `seed ${verdict.seed}${verdict.plantedBug ? ` (planted: ${verdict.plantedBug})` : ""}: ${verdict.violations.length === 0 ? "PASS" : "FAIL"}, ${verdict.violations.length} violations, ${verdict.operations.total} operations, ${verdict.schedule.faults.length} faults, ${verdict.seconds} s`;
  if (verdict.violations.length === 0) return head;
  const shown = verdict.violations
    .slice(0, 20)
    .flatMap((violation) => [
      `  [rule ${violation.rule}] ${violation.message}`,
      ...(violation.witness ? violation.witness.split("\n").map((line) => `    ${line}`) : []),
    ]);
  const more =
    verdict.violations.length > 20 ? [`  … and ${verdict.violations.length - 20} more (verdict.json)`] : [];
  return [
    head,
    ...shown,
    ...more,
    formatSchedule(verdict.schedule),
    `replay: pnpm test:campaign --seed ${verdict.seed} --minutes ${verdict.minutes} --topology ${verdict.schedule.topology}${verdict.plantedBug ? ` --planted-bug ${verdict.plantedBug}` : ""}`,
  ].join("\n");
}
