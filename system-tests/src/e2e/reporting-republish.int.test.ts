import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { roundReportEventId } from "@wallet/contracts/side-effects";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runDocBlockOk } from "../docs/doc-blocks.ts";
import { harnessPath } from "../harness/env.ts";
import { type AppProcess, authedPlayer, callGateway, eventually, useTestSystem } from "../harness/system.ts";

/**
 * Issue 31, point 5: with the reporting queue bounded to one unread report, the worker drops the
 * others and logs the command that restores them. Running exactly that command must restore every
 * dropped report, the first time and after republished reports were dropped again. Before the fix
 * the logged `--since` was a queue time: later than the reports' stored times (by milliseconds), and
 * for reports dropped a second time the time of the republish, so the command left reports missing.
 */
const run = promisify(execFile);
const workerDir = fileURLToPath(new URL("../../../apps/worker/", import.meta.url));
const bounded = { REPORTING_MAX_LENGTH: "1", RETENTION_EVERY_MS: "300" };
const system = useTestSystem();
const folder = mkdtempSync(join(tmpdir(), "republish-"));
let gateway: AppProcess;
beforeAll(async () => {
  gateway = await system.startGateway();
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A worker CLI (`src/cli/<script>`) with the system's database and Redis, as an SRE runs it. */
async function cli(script: string, args: string[]): Promise<string> {
  const env = {
    PATH: harnessPath,
    DATABASE_URL: system.ledger.url,
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: system.prefix,
  };
  const { stdout } = await run(process.execPath, ["--import", "tsx", `src/cli/${script}`, ...args], {
    cwd: workerDir,
    env,
  });
  return stdout;
}

/**
 * The runbook's WalletReportingBacklog block, run as written with the logged command's time: the
 * logged command must be the block's, word for word, but for that time.
 */
async function republishAsLogged(logged: string[]): Promise<string> {
  const since = logged.at(-1) ?? "";
  expect(logged).toEqual(["republish", "--topic", "reporting", "--since", since]);
  const { stdout } = await runDocBlockOk("docs/runbook.md#republish-reports", {
    env: {
      DATABASE_URL: system.ledger.url,
      REDIS_URL: inject("redisUrl"),
      REDIS_PREFIX: system.prefix,
      SINCE: since,
    },
  });
  return stdout;
}

/** The republish commands a worker logged since `from`, as printed (arguments after `pnpm side-effects`). */
function loggedCommands(worker: AppProcess): string[][] {
  return worker.logs
    .map((line) => /pnpm side-effects (republish --topic reporting --since \S+?)"/.exec(line)?.[1])
    .filter((command): command is string => command !== undefined)
    .map((command) => command.split(" "));
}

/** Runs a worker until it has dropped reports past the bound, stops it, and returns its first logged command. */
async function dropAndStop(worker: AppProcess): Promise<string[]> {
  const [command] = await eventually(
    async () => (loggedCommands(worker).length > 0 ? loggedCommands(worker) : undefined),
    20_000,
    "the worker's republish command",
  );
  await system.stop(worker);
  if (!command) throw new Error("no command");
  return command;
}

describe("republish --since, exactly as the worker logs it", () => {
  it("restores every report the bound dropped, and again after republished reports were dropped a second time", async () => {
    const worker = await system.startWorker(bounded);
    const player = await authedPlayer(system, gateway, { balance: 100_000n });
    const rounds = Array.from({ length: 6 }, (_, i) => `republish-${i}`);
    for (const round of rounds) {
      expect(
        (await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round })))
          .status,
      ).toBe(200);
      expect((await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000], [0]))).status).toBe(200);
    }
    await eventually(
      async () => ((await countRows(system.ledger, "round_reports")) === rounds.length ? true : undefined),
      20_000,
      "every round reported",
    );
    const first = await dropAndStop(worker);
    expect(await republishAsLogged(first)).toMatch(
      /round report\(s\) made since .* are on the reporting queue again/,
    );

    // The republished reports wait again; a worker with the same bound drops them again, and logs anew.
    const again = await dropAndStop(await system.startWorker(bounded));
    await republishAsLogged(again);

    await cli("reporting-export.ts", ["--out", folder, "--until-idle"]);
    const exported = readdirSync(folder)
      .filter((file) => file.startsWith("round-reports-"))
      .flatMap((file) => readFileSync(join(folder, file), "utf8").split("\n").filter(Boolean))
      .map((line) => JSON.parse(line) as { eventId: string; schemaVersion: number });
    expect(exported.map((report) => report.eventId).sort()).toEqual(
      rounds.map((round) => roundReportEventId(1, round)).sort(),
    );
    expect(new Set(exported.map((report) => report.schemaVersion))).toEqual(new Set([2]));
  }, 120_000);
});
