import { randomUUID } from "node:crypto";
import { redisNames } from "@wallet/contracts/jobs";
import { AckLog, type Acknowledged } from "@wallet/queue/ack-log";
import { createRedis } from "@wallet/queue/redis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { runRoundsAtRisk } from "../testing/run-cli.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";

// `rounds:at-risk` reading the acknowledgement log, as the runbook runs it after a failover (REDIS_URL
// and REDIS_PREFIX set): each round with a callback answered 200 that the ledger lacks is listed lost,
// with the lines; a log that does not reach back to the point, or none, is said so, never read as whole.
const ledger = useTestLedger();
const redis = createRedis({ url: inject("redisUrl") }, "at-risk-ack-log");
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A prefix of the test's own, its partition count recorded as the wallet's processes record it. */
async function walletPrefix(partitions: number) {
  const prefix = `test-${randomUUID().slice(0, 12)}`;
  prefixes.push(prefix);
  await redis.set(redisNames(prefix).partitionCount, String(partitions));
  const log = new AckLog(redis, prefix, { seconds: 1800, clock: { now: () => Date.now() } });
  // As a worker does at boot, before it answers anything.
  await log.recordStart();
  /** Logs these callbacks answered 200, on partition 0, as a worker does after its commit. */
  const acknowledge = (...bodies: Array<Record<string, unknown>>) =>
    log.send(
      bodies.map((body) => ({
        replyTo: `${prefix}:reply:gw`,
        reply: { id: String(body.provider_tx_id), status: 200, body: "{}", replayed: false },
        partition: 0,
        acknowledged: acknowledged(body),
      })),
    );
  return { prefix, acknowledge, env: { REDIS_URL: inject("redisUrl"), REDIS_PREFIX: prefix } };
}

function acknowledged(body: Record<string, unknown>): Acknowledged {
  const amount = BigInt(Number(body.amount));
  return {
    operatorId: 1,
    providerTxId: String(body.provider_tx_id),
    action: String(body.action),
    roundId: String(body.action_id),
    userId: body.user_id === undefined ? null : String(body.user_id),
    amount: String(body.action === "BET" ? -amount : amount),
    replayed: false,
  };
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("rounds:at-risk and the acknowledgement log", () => {
  it("lists each round with a callback answered 200 that the ledger lacks as lost, with its lines; one a reason already lists is merged", async () => {
    const { acknowledge, env, prefix } = await walletPrefix(1);
    const [a, b] = [await playerWithSession(ledger), await playerWithSession(ledger)];
    // Held: applied, then logged (the log starts before the point, as a log of minutes does). Its
    // round stays open at the point, which the second BET's answer makes.
    for (const held of [betBody(a, { action_id: "ack-held" }), betBody(a, { action_id: "ack-held" })]) {
      await sendWithdraw(ledger, held);
      await acknowledge(held);
      await pause(30);
    }
    // Acknowledged by the old primary and lost with it: logged, not in the ledger.
    const lostBet = betBody(b, { action_id: "ack-lost", amount: 1_500 });
    const wholeBet = betBody(a, { action_id: "ack-whole", amount: 800 });
    const wholeClose = closeRoundBody("ack-whole", [800], [0]);
    const mergedBet = betBody(b, { action_id: "ack-merged", amount: 600 });
    await acknowledge(lostBet, wholeBet, wholeClose, mergedBet);
    // A resend of the lost BET answered 200 again (its stored answer): logged again, listed once.
    await acknowledge(lostBet);
    await pause(30);
    const failoverAt = new Date();
    await pause(30);
    // The new primary refuses the lost BET's WIN (its bet unknown): that round is found twice.
    expect((await sendDeposit(ledger, settleBody(b, mergedBet, "WIN"))).status).toBe(400);

    const ran = await runRoundsAtRisk(ledger.url, ["--failover-at", failoverAt.toISOString()], {
      viaPnpm: true,
      env,
    });
    expect(ran.code).toBe(0);
    const listed = lines(ran.stdout).filter((line) => String(line.roundId).startsWith("ack-"));
    const lost = (body: Record<string, unknown>) => ({
      providerTxId: body.provider_tx_id,
      action: body.action,
      userId: body.user_id ?? null,
      amount: acknowledged(body).amount,
      acknowledgedAt: expect.stringMatching(/Z$/),
    });
    const line = (roundId: string, userIds: string[], lostLines: unknown[]) => ({
      category: "lost",
      reason: "acknowledged_not_held",
      operatorId: 1,
      roundId,
      userIds,
      createdAt: null,
      closedAt: null,
      evidence: expect.stringMatching(
        new RegExp(`^${lostLines.length} callback\\(s\\) answered 200 that the ledger does not hold`),
      ),
      lostLines,
    });
    // Rounds the ledger holds no row of first (lost whole); the merged one has the row its WIN made.
    expect(listed).toEqual([
      line("ack-lost", [b.userId], [lost(lostBet)]),
      line("ack-whole", [a.userId], [lost(wholeBet), lost(wholeClose)]),
      { ...line("ack-merged", [b.userId], [lost(mergedBet)]), createdAt: expect.any(String) },
      {
        category: "check",
        reason: "open_at_point",
        operatorId: 1,
        roundId: "ack-held",
        userIds: [a.userId],
        createdAt: expect.any(String),
        closedAt: null,
        evidence: "open at the point the data ends",
      },
    ]);
    // The merged round carries both findings, the log's first.
    expect(listed[2]?.evidence).toMatch(
      /^1 callback\(s\) answered 200 .*: BET \S+ of user \S+ \(-600\) at \S+Z; WIN \S+ of user \S+ refused \(400\)/,
    );
    expect(ran.stderr).toMatch(
      /^lost: 3 round\(s\), check: \d+ round\(s\)\. The surviving data ends at \S+Z \(POINT\)\. /,
    );
    expect(ran.stderr).toContain("Lost: 3 with a callback answered 200 the ledger lacks, ");
    expect(ran.stderr).toMatch(
      new RegExp(
        `The acknowledgement log \\(REDIS_PREFIX "${prefix}", 1 partition\\(s\\)\\) was read from \\S+Z \\(a minute before the point\\) to its end: ` +
          "7 callback\\(s\\) answered 200, 5 of them not in the ledger \\(listed as acknowledged_not_held\\); " +
          "it reaches back past the point on every partition, so every round with a callback answered 200 since the point that the ledger lacks is listed\\.\\n$",
      ),
    );
  });

  it("says on stderr and in its summary where the log does not reach back to the point, and when it was not read at all", async () => {
    const { acknowledge, env, prefix } = await walletPrefix(2);
    const names = redisNames(prefix);
    const player = await playerWithSession(ledger);
    const held = betBody(player, { action_id: "late-held" });
    await sendWithdraw(ledger, held);
    await acknowledge(held);
    await pause(30);
    const trimmedTo = Date.now();
    await pause(30);
    const lostBet = betBody(player, { action_id: "late-lost" });
    await acknowledge(lostBet);
    const failoverAt = new Date(Date.now() + 10).toISOString();
    await pause(30);
    // Partition 0's entries up to after the point trimmed, as ACK_LOG_SECONDS does once it has passed.
    await redis.xtrim(names.ackLog(0), "MINID", trimmedTo);
    const [start] = (await redis.xrange(names.ackLog(0), "-", "+")).map(([id]) =>
      new Date(Number(id.split("-")[0])).toISOString(),
    );
    const run = (extra: Record<string, string> = {}) =>
      runRoundsAtRisk(ledger.url, ["--failover-at", failoverAt], { env: { ...env, ...extra } });

    const trimmed = await run();
    expect(trimmed.code).toBe(0);
    const stderr = trimmed.stderr.split("\n");
    expect(stderr[0]).toBe(
      `warning: the acknowledgement log of partition 0 starts at ${start}, after the point (older entries trimmed: ACK_LOG_SECONDS): ` +
        "rounds played before it are found only by the other reasons",
    );
    expect(stderr[1]).toContain(
      `; but it does not reach back to the point (partition 0's starts at ${start}): rounds played before it are found only by the other reasons. ` +
        "A round played wholly between ",
    );
    // What it did read is listed all the same.
    expect(lines(trimmed.stdout).find((line) => line.roundId === "late-lost")).toMatchObject({
      category: "lost",
      reason: "acknowledged_not_held",
    });

    // Begun after the point (Redis emptied, or the log turned on, then), or no start recorded at all.
    const began = new Date(Date.now() + 60_000);
    await redis.set(names.ackLogSince, String(began.getTime()));
    expect((await run()).stderr.split("\n")).toContain(
      `warning: the acknowledgement log starts at ${began.toISOString()}, after the point (Redis emptied, or the log turned on, then): ` +
        "rounds played before it are found only by the other reasons",
    );
    await redis.del(names.ackLogSince);
    expect((await run()).stderr).toMatch(
      new RegExp(`^warning: no start of the acknowledgement log is recorded under REDIS_PREFIX "${prefix}"`),
    );

    const unread = await runRoundsAtRisk(ledger.url, ["--failover-at", failoverAt]);
    expect(unread.stderr).toContain(
      "The acknowledgement log was not read (REDIS_URL is not set, nor REDIS_CLUSTER_NODES). A round played wholly between ",
    );
    const wrongPrefix = await run({ REDIS_PREFIX: `${prefix}-typo` });
    expect(wrongPrefix.stderr).toMatch(
      new RegExp(`^warning: REDIS_PREFIX "${prefix}-typo" holds nothing of the wallet's .*"${prefix}"`),
    );
    expect(lines(wrongPrefix.stdout).find((line) => line.roundId === "late-lost")).toBeUndefined();
  });
});
