import { describe, expect, it } from "vitest";
import { campaignEnv } from "./env.ts";
import { formatVerdict } from "./report.ts";
import { runCampaign } from "./run-campaign.ts";

const { CAMPAIGN_FIRST_SEED: first, CAMPAIGN_SEEDS: count, CAMPAIGN_MINUTES: minutes } = campaignEnv;
const seeds = Array.from({ length: count }, (_, index) => first + index);

describe(`the fault campaign: ${count} seeds of ${minutes} min`, () => {
  it.each(seeds)("seed %i: every answer explained, nothing lost, doubled or applied twice", async (seed) => {
    const verdict = await runCampaign({ seed, minutes });
    const report = formatVerdict(verdict);
    console.log(report);
    expect(verdict.schedule.faults.length).toBeGreaterThan(0);
    // Load really flowed (a replicated pair on a loaded machine plays a few hundred a minute).
    expect(verdict.operations.total).toBeGreaterThan(200);
    expect(verdict.unknownPlayers).toEqual([]);
    expect(verdict.violations, report).toEqual([]);
  });
});
