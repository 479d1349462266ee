import { randomUUID } from "node:crypto";
import { sha256Hex } from "@wallet/contracts/hash";
import type { OutcomeReply } from "@wallet/contracts/jobs";
import { betBody, txId } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { playerWithSession, type TestPlayer } from "@wallet/ledger/testing/players";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { verifyLedger } from "@wallet/ledger/verify";
import { AckLog } from "@wallet/queue/ack-log";
import { ackLogPages } from "@wallet/queue/ack-log-read";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { type OpenDispatcher, openDispatcher } from "@wallet/queue/open-dispatcher";
import { createRedis } from "@wallet/queue/redis";
import { createLogger } from "@wallet/telemetry/logger";
import { afterEach, describe, expect, inject, it } from "vitest";
import { startLedgerWorkers } from "./ledger.worker.ts";
import { type PlantedBug, partitionJobsAtOnce, plantedBugRates, selectedOneIn } from "./planted-bugs.ts";
import { ledgerTestHooks, testCrashAt } from "./test-crash-points.ts";
import { quietWorkerMetrics } from "./testing/quiet-metrics.ts";

/**
 * The planted bugs that live in the worker's wiring (`TEST_PLANTED_BUG`, `planted-bugs.ts`), in-process
 * on a real ledger, Redis and BullMQ: gateways are dispatchers, workers are `startLedgerWorkers` with
 * a group commit each, wired as `main.ts` wires them. One partition, so every call shares it.
 */
const ledger = useTestLedger();
/** Batches with a BET into a round named so wait this long after their reads (`TEST_HOLD_BATCH_ROUND`). */
const HOLD = "hold-";
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Rig {
  gateways: OpenDispatcher[];
  prefix: string;
  send: (gateway: number, body: Record<string, unknown>) => Promise<OutcomeReply>;
}

async function startRig(bug: PlantedBug | undefined, counts: { gateways: number; workers: number }) {
  const url = inject("redisUrl");
  const prefix = `planted-${randomUUID().slice(0, 8)}`;
  closers.push(() => deleteKeysUnder(url, prefix));
  const gateways = await Promise.all(
    Array.from({ length: counts.gateways }, (_, index) =>
      openDispatcher({ redis: { url }, prefix, partitions: 1, clientId: `gw${index}` }),
    ),
  );
  for (const gateway of gateways) closers.push(() => gateway.close());
  const [first] = gateways;
  if (!first) throw new Error("no gateway");
  // What each worker sets at boot and every few heartbeats, after the gateways' own boot set 1.
  await first.queues.enforceSerialization(partitionJobsAtOnce(bug));
  const redis = createRedis({ url }, `${prefix}-worker`);
  closers.push(async () => redis.disconnect());
  const testHooks = ledgerTestHooks(
    { TEST_PLANTED_BUG: bug, TEST_HOLD_BATCH_ROUND: HOLD, TEST_HOLD_BATCH_MS: 500 },
    testCrashAt(undefined),
  );
  for (let worker = 0; worker < counts.workers; worker++) {
    const partitionWorkers = startLedgerWorkers({
      ctx: { ...ledger.ctx, testHooks },
      redis,
      clock: first.clock,
      answers: new AckLog(redis, prefix, { seconds: 1800, clock: first.clock }),
      logger: createLogger("planted-bugs-test", "silent"),
      metrics: quietWorkerMetrics(),
      prefix,
      partitions: 1,
      lockMs: 2_000,
      stallCheckMs: 1_000,
      pollMs: 100,
      maxBatch: 256,
      replyBeforeCommit: bug === "reply-before-commit",
    });
    closers.push(() => Promise.all(partitionWorkers.map((one) => one.close())));
  }
  const send = async (gateway: number, body: Record<string, unknown>) => {
    const rawBody = JSON.stringify(body);
    const reply = await gateways[gateway]?.dispatcher.call({
      partition: 0,
      job: { op: "withdraw", tenantId: 1, rawBody, bodySha256: sha256Hex(rawBody) },
      budgetMs: 10_000,
    });
    if (!reply) throw new Error("no reply by the deadline");
    return reply;
  };
  return { gateways, prefix, send } satisfies Rig;
}

const newBalanceOf = (reply: OutcomeReply) => JSON.parse(reply.body).data?.new_balance;

describe("TEST_PLANTED_BUG=early-partition-unlock", () => {
  /** Two BETs of one player in two rounds, through two gateways at once, each batch held after its reads. */
  async function twoBetsAtOnce(bug: PlantedBug | undefined) {
    const rig = await startRig(bug, { gateways: 2, workers: 2 });
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bets = [0, 1].map(() => betBody(player, { amount: 1_000, action_id: txId(HOLD) }));
    const replies = await Promise.all(bets.map((bet, gateway) => rig.send(gateway, bet)));
    const afters = (await journalOf(ledger, player.playerId)).map((line) => line.balanceAfter);
    const problems = (await verifyLedger(ledger.db)).problems.filter(
      (problem) => problem.walletId === player.playerId,
    );
    return { player, replies, afters, problems };
  }

  it("two workers run one player's BETs side by side on a stale balance: both answer 9000, the second line journals it, ledger:verify names the wallet", async () => {
    const { player, replies, afters, problems } = await twoBetsAtOnce("early-partition-unlock");
    expect(replies.map((reply) => [reply.status, newBalanceOf(reply)])).toEqual([
      [200, 9_000],
      [200, 9_000],
    ]);
    // The balance moved by deltas, so it and the journal's sum are right; what each line says it left is not.
    expect(await balanceOf(ledger, player.playerId)).toBe(8_000n);
    expect(afters).toEqual([10_000n, 9_000n, 9_000n]);
    expect(problems.map((problem) => problem.problem)).toEqual(["newest balance_after 9000 != balance"]);
  });

  it("without the switch the same two BETs run one after the other: 9000 then 8000, the ledger whole", async () => {
    const { replies, afters, problems } = await twoBetsAtOnce(undefined);
    expect(replies.map(newBalanceOf).sort()).toEqual([8_000, 9_000]);
    expect(afters).toEqual([10_000n, 9_000n, 8_000n]);
    expect(problems).toEqual([]);
  });
});

describe("TEST_PLANTED_BUG=reply-before-commit", () => {
  /** A BET whose provider_tx_id the rollback rule picks (one in `plantedBugRates.rollback`), or passes over. */
  function betPicked(player: TestPlayer, picked: boolean, amount: number) {
    for (;;) {
      const bet = betBody(player, { amount, action_id: txId("round") });
      if (selectedOneIn(plantedBugRates.rollback, String(bet.provider_tx_id)) === picked) return bet;
    }
  }

  async function acknowledgedIds(prefix: string): Promise<string[]> {
    const ids: string[] = [];
    const redis = createRedis({ url: inject("redisUrl") }, "planted-bugs-ack-read");
    try {
      for await (const page of ackLogPages(redis, prefix, 0, 0))
        ids.push(...page.acknowledged.map((call) => call.providerTxId));
    } finally {
      redis.disconnect();
    }
    return ids;
  }

  it(`a BET in ${plantedBugRates.rollback} is answered (and logged) 200 though its batch rolls back: the ledger holds nothing of it; the others commit`, async () => {
    const rig = await startRig("reply-before-commit", { gateways: 1, workers: 1 });
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const lost = betPicked(player, true, 1_000);
    const reply = await rig.send(0, lost);
    expect([reply.status, newBalanceOf(reply)]).toEqual([200, 9_000]);
    const kept = betPicked(player, false, 2_000);
    expect(newBalanceOf(await rig.send(0, kept))).toBe(8_000);

    expect(await acknowledgedIds(rig.prefix)).toEqual(
      expect.arrayContaining([lost.provider_tx_id, kept.provider_tx_id]),
    );
    const lostId = String(lost.provider_tx_id);
    expect(await countRows(ledger, "idempotency_records", lostId)).toBe(0);
    expect(await countRows(ledger, "bets", lostId)).toBe(0);
    expect(await countRows(ledger, "idempotency_records", String(kept.provider_tx_id))).toBe(1);
    expect(await balanceOf(ledger, player.playerId)).toBe(8_000n);
  });

  it("without the switch the same BET commits before its answer", async () => {
    const rig = await startRig(undefined, { gateways: 1, workers: 1 });
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betPicked(player, true, 1_000);
    expect(newBalanceOf(await rig.send(0, bet))).toBe(9_000);
    expect(await countRows(ledger, "idempotency_records", String(bet.provider_tx_id))).toBe(1);
    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
  });
});
