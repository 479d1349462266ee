import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { redisNames } from "@wallet/contracts/jobs";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { reportingQueueName } from "@wallet/queue/side-effect-queues";
import { callbackFlows } from "@wallet/system-tests/e2e/callback-flows.suite";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { eventually, useTestSystem } from "@wallet/system-tests/harness/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisCluster } from "../servers/redis-cluster.ts";

// The end-to-end callback suite on a local three-master Redis Cluster, with two gateways and three
// workers: every queue, reply channel, heartbeat and outbox publish goes through cluster routing.
const partitions = 16;
const env: Record<string, string> = { BODY_LIMIT_BYTES: "4096" };
const system = useTestSystem({ partitions, env });
let cluster: RedisCluster | undefined;
let dir = "";
const gateways: AppProcess[] = [];
let turn = 0;

beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wallet-cluster-`);
  cluster = await RedisCluster.start(dir, 3);
  // Read by every app started from now on; REDIS_URL is then not used.
  env.REDIS_CLUSTER_NODES = cluster.nodes;
  await Promise.all([system.startWorker(), system.startWorker(), system.startWorker()]);
  gateways.push(await system.startGateway(), await system.startGateway());
}, 120_000);

afterAll(async () => {
  await system.shutdown();
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

callbackFlows({
  system,
  // Each read hands out the other gateway: a session opened on one is used on the other, and a
  // worker's reply must reach whichever gateway is waiting.
  get gateway() {
    turn += 1;
    const gateway = gateways[turn % gateways.length];
    if (!gateway) throw new Error("no gateway started");
    return gateway;
  },
  workers: 3,
});

describe("Redis Cluster layout", () => {
  it("each partition's keys live in one slot, and the partitions spread over all three masters", async () => {
    if (!cluster) throw new Error("no cluster");
    const names = redisNames(system.prefix);
    const homes = new Map<number, number[]>();
    let logged = 0;
    for (let partition = 0; partition < partitions; partition++) {
      const queue = names.ledgerQueue(partition);
      // The queue's meta key (its global concurrency 1) is written at boot: it must be on its slot's master.
      const key = `${names.bullPrefix(queue)}:${queue}:meta`;
      const master = await cluster.masterOf(key);
      expect(await cluster.command(master, "HGET", key, "concurrency")).toBe("1");
      // Every other key of the queue hashes to the same slot (the `{ledger-N}` tag), its
      // acknowledgement log too: each batch's log entries and answers are one script on one slot.
      expect(await cluster.masterOf(`${names.bullPrefix(queue)}:${queue}:wait`)).toBe(master);
      expect(await cluster.masterOf(names.ackLog(partition))).toBe(master);
      logged += Number(await cluster.command(master, "XLEN", names.ackLog(partition)));
      homes.set(master, [...(homes.get(master) ?? []), partition]);
    }
    // The callback suite above was answered through the log's script on every master.
    expect(logged).toBeGreaterThan(0);
    console.log(`partitions per master: ${JSON.stringify(Object.fromEntries(homes))}`);
    expect([...homes.keys()].sort()).toEqual([...cluster.ports].sort());
  });

  it("the outbox relay publishes every round close's side effects through the cluster, each applied once", async () => {
    if (!cluster) throw new Error("no cluster");
    const closes = await countRows(system.ledger, "round_closes");
    expect(closes).toBeGreaterThan(0);
    await eventually(
      async () => ((await unappliedOutboxRows(system.ledger)) === 0 ? true : undefined),
      30_000,
      "side effects applied",
    );
    expect(await countRows(system.ledger, "side_effect_receipts")).toBe(4 * closes);
    expect(await countRows(system.ledger, "round_reports")).toBe(closes);
    // The reporting team's queue waits with one job per round report, on its own slot's master.
    const names = redisNames(system.prefix);
    const waiting = `${names.bullPrefix(reportingQueueName)}:${reportingQueueName}:wait`;
    expect(await cluster.command(await cluster.masterOf(waiting), "LLEN", waiting)).toBe(closes);
  });
});
