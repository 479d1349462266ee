import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Database } from "@wallet/ledger/db";
import { dropDatabase } from "@wallet/ledger/migrate";
import { verifyLedger } from "@wallet/ledger/verify";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { endWithParent } from "@wallet/system-tests/harness/processes/launch";
import { describeMachine } from "../machine.ts";
import { seedWithTournament } from "../seed.ts";
import type { ScalingRun } from "./context.ts";
import { idlePhase } from "./phases/idle.ts";
import { loadPhase } from "./phases/load.ts";
import { operatorPhase } from "./phases/operator.ts";
import { partitionPhase } from "./phases/partition.ts";
import { replicaPhase } from "./phases/replica.ts";
import { serialPhase } from "./phases/serial.ts";
import { slotsPhase } from "./phases/slots.ts";
import { workersPhase } from "./phases/workers.ts";
import { ProcessGroups } from "./process-groups.ts";
import { chooseServers, type Stoppable } from "./servers.ts";
import { databaseName, scalingSettings } from "./settings.ts";
import { Systems } from "./system.ts";

/**
 * The numbers docs/scaling.md needs that `pnpm bench` does not print: Redis commands and CPU per
 * callback, one partition's serial ceiling, MySQL statements, commits, flushes and row locks per
 * callback, the idle cost of partitions and workers, the operator API's reads, and (private servers
 * only) binary-log cost and replica lag. `pnpm bench:scaling`.
 *
 * This file only orders the phases (phases/*.ts, one each) and cleans up; the phases on system A
 * run in one system's lifetime, so each sees the data the one before it left.
 */
const settings = scalingSettings.parse(process.env);
// Its servers and apps end with it however it ends (the launcher's watcher); it ends with pnpm.
endWithParent();
const phases = settings.SCALING_PHASES;
const say = (text: string) => console.log(text);
const results: Record<string, unknown> = {
  at: new Date().toISOString(),
  machine: describeMachine(),
  settings: { ...settings, SCALING_PHASES: [...phases], DATABASE_URL: undefined },
};

const dir = await mkdtemp(path.join(os.tmpdir(), "wallet-scaling-"));
const started: Stoppable[] = [];
const servers = await chooseServers(settings, dir, started);
const meterRedis = createRedis({ url: servers.redisUrl }, "scaling-meter");
const systems = new Systems(servers.redisUrl, meterRedis);
const groups = new ProcessGroups(servers.mysqlPids, servers.redisPids, systems);
const run: ScalingRun = { settings, results, say, dir, servers, started, groups, systems, meterRedis };

let database: Database | undefined;
try {
  if (phases.has("slots")) slotsPhase(run);

  const onSystemA = ["idle", "serial", "partition", "load", "operator"].some((phase) => phases.has(phase));
  if (onSystemA || phases.has("workers")) {
    say(
      `==> seeding ${settings.SCALING_PLAYERS} players into ${databaseName} (${settings.SCALING_SERVERS} servers)`,
    );
    const seeded = await seedWithTournament(servers.databaseUrl, settings.SCALING_PLAYERS);
    database = seeded.database;
    const meter = groups.meter(meterRedis, seeded.database.db);

    if (onSystemA) {
      const a = await idlePhase(run, seeded, meter);
      if (phases.has("serial")) await serialPhase(run, a);
      if (phases.has("partition")) await partitionPhase(run, a);
      if (phases.has("load")) await loadPhase(run, a);
      if (phases.has("operator")) await operatorPhase(run, a);
      // Everything system A was sent must still add up: a number from a broken ledger is no number.
      const verification = await verifyLedger(a.db);
      results.ledgerVerifiedA = { wallets: verification.wallets, problems: verification.problems.length };
      say(`  ledger: ${verification.wallets} wallets, ${verification.problems.length} problems`);
      await run.systems.stop(a.system);
    }

    if (phases.has("workers")) await workersPhase(run, seeded, meter);
  }

  // Needs servers of its own: a binary log and a replica cannot be switched on in a shared server.
  if (phases.has("replica") && settings.SCALING_SERVERS === "private") await replicaPhase(run);
} finally {
  await run.systems.stopRunning().catch(() => {});
  await database?.close().catch(() => {});
  if (settings.SCALING_SERVERS === "shared") {
    for (const prefix of run.systems.prefixes)
      await deleteKeysUnder(servers.redisUrl, prefix).catch(() => {});
    await dropDatabase(servers.databaseUrl).catch(() => {});
  }
  meterRedis.disconnect();
  for (const server of [...started].reverse()) await server.stop().catch(() => {});
  await rm(dir, { recursive: true, force: true });
}

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
mkdirSync(settings.SCALING_RESULTS_DIR, { recursive: true });
const file = `${settings.SCALING_RESULTS_DIR}/scaling-${stamp}.json`;
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
say(`\nresults: ${file}`);
process.exit(0);
