import { killAndFailOver } from "../../faults/failover/fail-over.ts";
import { certificationStorm } from "../../faults/galera/certification-storm.ts";
import { GaleraCluster } from "../../servers/galera-cluster.ts";
import { asRoot, type MariaDbServer } from "../../servers/mariadb-server.ts";
import { ReplicatedMariaDb } from "../../servers/replicated-mariadb.ts";
import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import { pause } from "./pause.ts";

/**
 * MariaDB SIGKILLed, down for the fault's duration, restarted: crash recovery keeps what was committed.
 * On Galera, node 1 (the operator API's, a worker's, the test's): the other two go on without it, and
 * it rejoins by IST; the fault ends once it is synced again.
 */
export async function killMariaDb(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const server = system.faults.mariadb;
  await server.signal("SIGKILL");
  await pause(fault.durationMs);
  const { database } = system.faults;
  if (database instanceof GaleraCluster) {
    const began = performance.now();
    await database.rejoin(server);
    return `node 1 killed; rejoined and synced in ${Math.round(performance.now() - began)} ms`;
  }
  // A promoted replica was launched read-only; as primary now, it comes back writable (a failover
  // tool rewrites its configuration so).
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

/**
 * Galera only (`stormDraw`): the players' wallet rows updated through node 3 for the fault's duration.
 * Its note counts the brute-force aborts and certification failures on the written nodes meanwhile.
 */
export async function stormThroughThirdNode(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const { database, ledger } = system.faults;
  if (!(database instanceof GaleraCluster)) return "no third node: the topology is not Galera";
  const [first, second, third] = database.nodes as [MariaDbServer, MariaDbServer, MariaDbServer];
  const conflicts = async () => {
    let sum = 0;
    for (const node of [first, second]) {
      const status = await database.status(node).catch(() => ({}) as Record<string, string>);
      sum += Number(status.wsrep_local_bf_aborts ?? 0) + Number(status.wsrep_local_cert_failures ?? 0);
    }
    return sum;
  };
  const before = await conflicts();
  const storm = certificationStorm(
    third,
    new URL(ledger.url).pathname.slice(1),
    system.players.map((player) => player.playerId),
  );
  await pause(fault.durationMs);
  const { committed, lost } = await storm.stop();
  const aborted = (await conflicts()) - before;
  return `${committed} updates committed through node 3 (lost ${JSON.stringify(lost)}); ${aborted} transactions aborted on nodes 1 and 2 meanwhile`;
}
