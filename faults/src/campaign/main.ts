import { parseArgs } from "node:util";
import { type Topology, topologies } from "./schedule/plan.ts";

const usage = `usage: pnpm test:campaign --seed N --minutes M [--seeds K] [--shrink] [--planted-bug NAME]
  --seed N        the first seed (a positive integer)
  --minutes M     each campaign's load, in minutes (0.5 to 120)
  --seeds K       run K seeds from N on (default 1)
  --topology T    single, semisync or galera (default: every third seed semisync, the others single)
  --shrink        re-run a failing seed with faults removed one by one, print the shortest schedule
  --planted-bug   a worker bug switched on (TEST_PLANTED_BUG), to show the checker catches it`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      seed: { type: "string" },
      minutes: { type: "string" },
      seeds: { type: "string", default: "1" },
      shrink: { type: "boolean", default: false },
      "planted-bug": { type: "string" },
      topology: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { values } = parsed;
const seed = Number(values.seed);
const minutes = Number(values.minutes);
const seeds = Number(values.seeds);
if (!Number.isSafeInteger(seed) || seed < 1) fail("--seed must be a positive integer");
if (!Number.isFinite(minutes) || minutes < 0.5 || minutes > 120)
  fail("--minutes must be between 0.5 and 120");
if (!Number.isSafeInteger(seeds) || seeds < 1) fail("--seeds must be a positive integer");
const topology = values.topology;
if (topology !== undefined && !isTopology(topology))
  fail(`--topology must be one of ${topologies.join(", ")}`);

function isTopology(value: string): value is Topology {
  return (topologies as readonly string[]).includes(value);
}

// The system's modules are loaded only once the options are good: a typo is refused at once.
const { runCampaign } = await import("./run-campaign.ts");
const { formatVerdict } = await import("./report.ts");
const { shrinkFailure } = await import("./shrink.ts");
const { passed } = await import("./verdict.ts");

let failed = 0;
for (let next = seed; next < seed + seeds; next++) {
  const verdict = await runCampaign({ seed: next, minutes, plantedBug: values["planted-bug"], topology });
  console.log(formatVerdict(verdict));
  if (passed(verdict)) continue;
  failed += 1;
  if (values.shrink) await shrinkFailure(verdict, { plantedBug: values["planted-bug"] });
}
console.log(`campaign: ${seeds - failed} of ${seeds} seeds passed`);
process.exit(failed === 0 ? 0 : 1);
