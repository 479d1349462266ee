import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { redisNames } from "@wallet/contracts/jobs";
import { RedisServer } from "@wallet/faults/servers/redis-server";
import { AckLog, type Answer } from "@wallet/queue/ack-log";
import { createRedis } from "@wallet/queue/redis";

/**
 * `pnpm bench:ack-log`: what the acknowledgement log costs, on a Redis of its own (its memory and
 * command counters are this program's alone), for batches of 1, 4, 16 and 64 callbacks (what one
 * entry holds: 1 for a lone callback, more as the group commit fills) of the simulator's shape (UUID
 * ids, `crash-<uuid>` rounds, a reply body as the ledger writes it):
 * 1. memory: CALLBACKS callbacks logged through `AckLog` on one partition; the stream's `MEMORY USAGE`
 *    (exact) and `used_memory`'s growth, per callback;
 * 2. time: the same batches sent with the log (the script: XADD, then PUBLISH) and without it
 *    (ACK_LOG_SECONDS=0: PUBLISH only), alternated ROUNDS times: this process's CPU (user + system) and
 *    Redis's (`INFO commandstats` usec of EVALSHA against PUBLISH) per callback, medians.
 * Prints the numbers; never fails on them.
 */
const CALLBACKS = Number(process.env.ACK_LOG_BENCH_CALLBACKS ?? 20_000);
const BATCHES = [1, 4, 16, 64];
const ROUNDS = 5;

const dir = await mkdtemp(`${tmpdir()}/wallet-ack-log-`);
const server = await RedisServer.start(dir);
const redis = createRedis({ url: server.url() }, "ack-log-bench");
const clock = { now: () => Date.now() };
const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1]);
/** Server time spent in EVALSHA and PUBLISH so far (µs): a script's inner calls are in its own. */
const serverUsec = async () => {
  const stats = await redis.info("commandstats");
  const usec = (command: string) =>
    Number(new RegExp(`cmdstat_${command}:calls=\\d+,usec=(\\d+)`).exec(stats)?.[1] ?? 0);
  return usec("evalsha") + usec("publish");
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function answer(at: number): Answer {
  const providerTxId = randomUUID();
  const userId = randomUUID();
  const data = {
    user_id: userId,
    operator_tx_id: randomUUID(),
    provider_tx_id: providerTxId,
    new_balance: 1_000_000,
    currency: "EUR",
  };
  return {
    replyTo: "bench:reply:gw",
    reply: {
      id: randomUUID(),
      status: 200,
      body: JSON.stringify({ code: 200, message: "OK", data }),
      replayed: false,
    },
    partition: 0,
    acknowledged: {
      operatorId: 1,
      providerTxId,
      action: at % 2 === 0 ? "BET" : "WIN",
      roundId: `crash-${randomUUID()}`,
      userId,
      amount: at % 2 === 0 ? "-1000" : "2500",
      replayed: false,
    },
  };
}

/** Sends `count` callbacks in batches of `batch`: this process's CPU and Redis's time, µs per callback. */
async function timed(log: AckLog, batch: number, count: number) {
  const batches = Array.from({ length: Math.ceil(count / batch) }, (_, at) =>
    Array.from({ length: batch }, (_, index) => answer(at * batch + index)),
  );
  const usecBefore = await serverUsec();
  const cpuBefore = process.cpuUsage();
  for (const answers of batches) await log.send(answers);
  const cpu = process.cpuUsage(cpuBefore);
  const usec = (await serverUsec()) - usecBefore;
  const sent = batches.length * batch;
  return { client: (cpu.user + cpu.system) / sent, server: usec / sent };
}

try {
  console.log("batch | bytes per callback (MEMORY USAGE) | used_memory growth per callback");
  for (const batch of BATCHES) {
    const prefix = `mem-${batch}`;
    const log = new AckLog(redis, prefix, { seconds: 1800, clock });
    const before = await usedMemory();
    for (let sent = 0; sent < CALLBACKS; sent += batch)
      await log.send(Array.from({ length: batch }, (_, at) => answer(sent + at)));
    const usage = Number(await redis.memory("USAGE", redisNames(prefix).ackLog(0), "SAMPLES", "0"));
    const grown = (await usedMemory()) - before;
    console.log(`${batch} | ${(usage / CALLBACKS).toFixed(1)} | ${(grown / CALLBACKS).toFixed(1)}`);
    await redis.del(redisNames(prefix).ackLog(0));
  }
  console.log(
    "\nbatch | client CPU µs per callback: log / no log | Redis µs per callback: log / no log (medians of 5, alternated)",
  );
  for (const batch of BATCHES) {
    const on = new AckLog(redis, "time-on", { seconds: 1800, clock });
    const off = new AckLog(redis, "time-off", { seconds: 0, clock });
    const results: Record<"on" | "off", Array<{ client: number; server: number }>> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Which goes first alternates, so neither always runs on a warmer process.
      for (const side of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const))
        results[side].push(await timed(side === "on" ? on : off, batch, CALLBACKS / 4));
    }
    const of = (side: "on" | "off", key: "client" | "server") =>
      median(results[side].map((r) => r[key])).toFixed(2);
    console.log(
      `${batch} | ${of("on", "client")} / ${of("off", "client")} | ${of("on", "server")} / ${of("off", "server")}`,
    );
    await redis.del(redisNames("time-on").ackLog(0));
  }
} finally {
  redis.disconnect();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
