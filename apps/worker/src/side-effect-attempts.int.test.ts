import { randomUUID } from "node:crypto";
import { redisNames } from "@wallet/contracts/jobs";
import { sideEffectCatalog } from "@wallet/contracts/side-effect-catalog";
import { type CloseRoundEvent, closeRoundEvent } from "@wallet/contracts/side-effects";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { relayOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { failureOf, receiptsOf } from "@wallet/ledger/testing/dead-letters";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues, sideEffectQueueName } from "@wallet/queue/side-effect-queues";
import { eventually } from "@wallet/queue/testing/eventually";
import { createLogger } from "@wallet/telemetry/logger";
import { Queue, type Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSideEffectWorkers } from "./side-effects.worker.ts";
import { quietWorkerMetrics } from "./testing/quiet-metrics.ts";

/**
 * Issue 31: an infrastructure error that repeats on the same event (a statement past
 * max_allowed_packet reset its connection each time) never counted toward its attempts, so the
 * effect came back with every sweep and never died. Here a real one: a lock held on one player's
 * loyalty balance, so that event's transaction times out (errno 1205) on every attempt.
 */
const ledger = useTestLedger();
const prefix = `attempts-${randomUUID().slice(0, 8)}`;
const closers: Array<() => Promise<unknown>> = [];
let loyalty: Queue;
let pool: ReturnType<typeof createDatabase>["batch"];

beforeAll(async () => {
  const database = createDatabase({ url: ledger.url, poolSize: 4, lockWaitTimeoutSeconds: 1 });
  pool = database.batch;
  // One transaction attempt each, no retry budget: the lock wait is the job's failure, not something a rerun waits out.
  const ctx: LedgerContext = {
    db: database.db,
    batch: database.batch,
    config: { ...defaultLedgerConfig, transactionAttempts: 1, transactionRetryMs: 0 },
  };
  const redis = createRedis({ url: inject("redisUrl") }, "attempts-test");
  const queues = new SideEffectQueues(redis, prefix);
  const metrics = quietWorkerMetrics();
  const consumers: Worker[] = startSideEffectWorkers({
    ctx,
    redis,
    prefix,
    queues,
    logger: createLogger("attempts-test", "silent"),
    metrics,
    concurrency: 1,
    lockMs: 5_000,
    stallCheckMs: 1_000,
    maxAttempts: 2,
    crashAt: async () => {},
  });
  const name = sideEffectQueueName("loyalty");
  loyalty = new Queue(name, { connection: redis, prefix: redisNames(prefix).bullPrefix(name) });
  closers.push(
    () => Promise.all(consumers.map((consumer) => consumer.close())),
    () => loyalty.close(),
    () => queues.close(),
    async () => redis.disconnect(),
    () => database.close(),
  );
});
afterAll(async () => {
  for (const close of closers) await close();
});

/** A player's closed round and its (unpublished) close event. */
async function closedRound(): Promise<{ playerId: number; event: CloseRoundEvent }> {
  const round = `attempts-${randomUUID().slice(0, 8)}`;
  const player = await playerWithSession(ledger, { balance: 10_000n });
  expect((await sendWithdraw(ledger, betBody(player, { amount: 2_000, action_id: round }))).status).toBe(200);
  expect((await sendDeposit(ledger, closeRoundBody(round, [2_000], [0]))).status).toBe(200);
  const events: CloseRoundEvent[] = [];
  await relayOutbox(ledger.db, async (rows) => {
    for (const row of rows)
      if (row.topic === "loyalty") events.push(closeRoundEvent.parse(JSON.parse(row.payload)));
  });
  const event = events.find((found) => found.roundId === round);
  if (!event) throw new Error("no close event");
  return { playerId: player.playerId, event };
}

/** A loyalty job of these events, retried by BullMQ once (two attempts), as the relay's are ten times. */
const publish = (events: CloseRoundEvent[]) =>
  loyalty.add(
    "loyalty",
    { events },
    { ...sideEffectCatalog.loyalty.jobOptions, attempts: 2, backoff: 50, jobId: randomUUID() },
  );

const failures = (event: CloseRoundEvent) => failureOf(ledger.db, event.eventId, "loyalty");
const applied = async (event: CloseRoundEvent) => (await receiptsOf(ledger.db, event.eventId)) === 1;

describe("an infrastructure error that repeats on the same event", () => {
  it("counts toward that event's attempts once BullMQ's retries are spent, ends dead, and its neighbours land", async () => {
    const stuck = await closedRound();
    const neighbour = await closedRound();
    // Another transaction holds the stuck player's loyalty balance row: that event's transaction
    // times out on it (1205), every time, while MariaDB itself is fine.
    const holder = await pool.getConnection();
    try {
      await holder.query("START TRANSACTION");
      await holder.query(
        "INSERT INTO loyalty_balances (player_id, tenant_id, points, updated_at) VALUES (?, 1, 0, CURRENT_TIMESTAMP(3))",
        [stuck.playerId],
      );

      await publish([stuck.event, neighbour.event]);
      const first = await eventually(() => failures(stuck.event), 30_000, "first failure");
      expect(first).toMatchObject({ attempts: 1, dead: false, outboxDead: false });
      expect(first?.lastError).toMatch(/Lock wait timeout/i);
      // The neighbour in the same job is applied on its own, after the stuck event's failure is
      // recorded (the events are isolated in order), so it is waited for, not read at once.
      await eventually(
        async () => ((await applied(neighbour.event)) ? true : undefined),
        30_000,
        "neighbour applied",
      );
      expect(await applied(stuck.event)).toBe(false);

      // The sweep's next delivery fails the same way: the second of SIDE_EFFECT_MAX_ATTEMPTS (2), dead.
      await publish([stuck.event]);
      const second = await eventually(
        async () => {
          const found = await failures(stuck.event);
          return found && found.attempts >= 2 ? found : undefined;
        },
        30_000,
        "second failure",
      );
      expect(second).toMatchObject({ attempts: 2, dead: true, outboxDead: true });
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      holder.release();
    }
  }, 60_000);
});
