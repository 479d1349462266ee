import { killAndFailOver } from "../../faults/failover/fail-over.ts";
import { asRoot } from "../../servers/mariadb-server.ts";
import { ReplicatedMariaDb } from "../../servers/replicated-mariadb.ts";
import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import { pause } from "./pause.ts";

/** MariaDB SIGKILLed, down for the fault's duration, restarted: crash recovery keeps what was committed. */
export async function killMariaDb(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const server = system.faults.mariadb;
  await server.signal("SIGKILL");
  await pause(fault.durationMs);
  // A promoted replica was launched read-only; as primary now, it comes back writable (a failover
  // tool rewrites its configuration so).
  const { database } = system.faults;
  const promoted = database instanceof ReplicatedMariaDb && server === database.replica;
  await server.restart(promoted ? ["--read-only=OFF"] : []);
  return "killed and restarted";
}

/** Redis SIGKILLed and restarted empty (it keeps nothing on disk): queues, replies, heartbeats, acknowledgement log gone. */
export async function restartRedisEmpty(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const { redis } = system.faults;
  await redis.signal("SIGKILL");
  await pause(fault.durationMs);
  await redis.restart();
  return "restarted empty";
}

/** A server frozen (SIGSTOP) for the fault's duration, then woken: every connection to it hangs meanwhile. */
export async function freezeServer(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const server = fault.kind === "mariadb-freeze" ? system.faults.mariadb : system.faults.redis;
  await server.signal("SIGSTOP");
  try {
    await pause(fault.durationMs);
  } finally {
    await server.signal("SIGCONT");
  }
  return "frozen";
}

/**
 * The replicated topology's failover (`failoverDraw`): the primary SIGKILLed, the semi-synchronous
 * replica promoted and the wallet's address moved to it (no app restarted); the old primary dead for
 * the fault's duration, then back read-only (as a failover tool leaves a demoted primary) with the
 * address misdirected to it for `returnMs`: only 503s may come of it; then back to the new primary.
 */
export async function failOver(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const database = system.faults.database;
  if (!(database instanceof ReplicatedMariaDb)) return "no replica: the topology is a single server";
  const { promotedAfterMs } = await killAndFailOver(system.faults, database);
  await pause(fault.durationMs);
  const promoted = system.faults.mariadb;
  const old = database.first;
  await old.restart();
  await asRoot(old, (connection) => connection.query("SET GLOBAL read_only = ON"));
  system.faults.moveDatabase(old);
  await pause(fault.detail.returnMs ?? 2_000);
  system.faults.moveDatabase(promoted);
  return `promoted in ${promotedAfterMs} ms; the old primary back fenced for ${fault.detail.returnMs} ms`;
}
