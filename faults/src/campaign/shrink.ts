import { type CampaignOptions, runCampaign } from "./run-campaign.ts";
import { formatSchedule, withoutFaults } from "./schedule/plan.ts";
import { type CampaignVerdict, passed } from "./verdict.ts";

/**
 * A failing seed's shortest schedule: the campaign re-run with its faults removed one by one, each
 * removal kept while the campaign still fails (any violation), so what is left is a schedule in
 * which every fault is needed (or none: the load alone fails). Each try is a whole campaign.
 */
export async function shrinkFailure(
  failing: CampaignVerdict,
  options: Pick<CampaignOptions, "plantedBug" | "log">,
): Promise<CampaignVerdict> {
  let smallest = failing;
  const log = options.log ?? console.log;
  for (const fault of failing.schedule.faults) {
    const removed = new Set(
      failing.schedule.faults
        .map((one) => one.index)
        .filter((index) => !smallest.schedule.faults.some((kept) => kept.index === index)),
    );
    removed.add(fault.index);
    const tried = await runCampaign({
      seed: failing.seed,
      minutes: failing.minutes,
      schedule: withoutFaults(failing.schedule, removed),
      plantedBug: options.plantedBug,
      log: () => {},
    });
    log(
      `[shrink ${failing.seed}] without #${fault.index} ${fault.kind}: ${passed(tried) ? "passes (needed)" : "still fails (dropped)"}`,
    );
    if (!passed(tried)) smallest = tried;
  }
  log(`[shrink ${failing.seed}] shortest failing schedule:\n${formatSchedule(smallest.schedule)}`);
  return smallest;
}
