import { readFile } from "node:fs/promises";
import type { PlayerStart } from "./checker/player-start.ts";
import { linearizabilityViolations } from "./checks/linearizable.ts";
import type { Operation } from "./history/operation.ts";

/**
 * Rule 1 again on a saved campaign (`faults/results/campaign/seed-N/`: its history and its players'
 * starts), without the system: for a checker or model change, or to read a violation's witness again.
 * `node --import tsx faults/src/campaign/recheck.ts faults/results/campaign/seed-N`
 */
const dir = process.argv[2];
if (!dir) {
  console.error("usage: recheck.ts <a campaign's results folder>");
  process.exit(2);
}
const history = (await readFile(`${dir}/history.ndjson`, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Operation);
const starts = (
  JSON.parse(await readFile(`${dir}/starts.json`, "utf8")) as Array<
    Omit<PlayerStart, "balance" | "maxbet"> & { balance: string; maxbet: string }
  >
).map((start) => ({ ...start, balance: BigInt(start.balance), maxbet: BigInt(start.maxbet) }));
const started = performance.now();
const { violations, unknown } = linearizabilityViolations(history, starts);
console.log(
  `${dir}: ${history.length} operations, ${starts.length} players: ${violations.length} violations of rule 1, ` +
    `${unknown.length} undecided, in ${Math.round(performance.now() - started)} ms`,
);
for (const violation of violations) console.log(`${violation.message}\n${violation.witness ?? ""}`);
for (const player of unknown) console.log(`undecided: ${player}`);
process.exit(violations.length === 0 && unknown.length === 0 ? 0 : 1);
