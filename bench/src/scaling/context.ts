import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import type { SeededPlayer } from "../seed.ts";
import type { Meter } from "./counters.ts";
import type { ProcessGroups } from "./process-groups.ts";
import type { Servers, Stoppable } from "./servers.ts";
import type { ScalingSettings } from "./settings.ts";
import type { System, Systems } from "./system.ts";
import type { WindowDescription } from "./window.ts";

/** What every phase shares: the settings, the results being written, the servers and process groups. */
export interface ScalingRun {
  settings: ScalingSettings;
  /** The JSON written at the end; each phase adds its key. */
  results: Record<string, unknown>;
  say: (text: string) => void;
  /** The run's temporary folder (private servers' data and logs). */
  dir: string;
  servers: Servers;
  /** Every server started, stopped last first when the run ends. */
  started: Stoppable[];
  groups: ProcessGroups;
  systems: Systems;
  /** The meter's own Redis connection (INFO only). */
  meterRedis: RedisClient;
}

/**
 * System A (1 worker, a gateway, 32 partitions) on the seeded database, with its idle background
 * measured: the serial, partition, load and operator phases measure against it.
 */
export interface SystemA {
  db: Db;
  meter: Meter;
  players: SeededPlayer[];
  tournamentId: number;
  system: System;
  /** Its idle window (per second), subtracted from per-callback counts. */
  idle: WindowDescription;
}
