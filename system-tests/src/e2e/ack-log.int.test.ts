import { redisNames } from "@wallet/contracts/jobs";
import { partitionOf, playerKey, roundKey } from "@wallet/contracts/partition";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { grantFreeBets } from "@wallet/ledger/verbs/grant-free-bets";
import { ackLogPages, type LoggedAcknowledgement } from "@wallet/queue/ack-log-read";
import { createRedis } from "@wallet/queue/redis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { authedPlayer, callGateway, useRunningSystem } from "../harness/system.ts";

// The acknowledgement log as the running worker writes it: an entry for each callback answered 200
// and for nothing else, written before the answer leaves; when Redis refuses the entry, no 200.
const partitions = 2;
const running = useRunningSystem({ partitions, deadlineMs: 1_500 });
const redis = createRedis({ url: inject("redisUrl") }, "ack-log-e2e");
afterAll(() => redis.disconnect());

/** Everything logged under the system's prefix, oldest first, without the answers' times. */
async function logged(): Promise<Array<Omit<LoggedAcknowledgement, "answeredAt">>> {
  const all: LoggedAcknowledgement[] = [];
  for (let partition = 0; partition < partitions; partition++)
    for await (const page of ackLogPages(redis, running.system.prefix, partition, 0)) {
      expect(page.unreadable).toEqual([]);
      all.push(...page.acknowledged);
    }
  return all.sort((a, b) => a.answeredAt - b.answeredAt).map(({ answeredAt: _, ...call }) => call);
}

describe("the acknowledgement log of a running worker", () => {
  it("holds each money and close callback answered 200 (a resend's too), exactly as the platform sent it, and no other", async () => {
    const { system, gateway } = running;
    const player = await authedPlayer(system, gateway, { balance: 5_000n });
    await grantFreeBets({ ctx: system.ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const mine = partitionOf(1, playerKey(player.userId), partitions);
    const bet = betBody(player, { action_id: "ack-r1", amount: 1_000 });
    const win = settleBody(player, bet, "WIN", { amount: 2_500 });
    const voided = betBody(player, { action_id: "ack-r1", amount: 700 });
    const rollback = settleBody(player, voided, "ROLL_BACK");
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0, action_id: "ack-r1" });
    const close = closeRoundBody("ack-r1", [1_000, 700], [2.5, 0]);
    const statuses = [];
    for (const [path, body] of [
      ["/withdraw", bet],
      ["/withdraw", betBody(player, { amount: 999_999 })],
      ["/deposit", win],
      ["/withdraw", voided],
      ["/deposit", rollback],
      ["/withdraw", freeBet],
      ["/balance", { user_id: player.userId, currency: "EUR" }],
      ["/withdraw", bet],
      ["/withdraw", { ...bet, amount: 2_000 }],
      ["/deposit", close],
    ] as const)
      statuses.push((await callGateway(gateway, path, body)).status);
    expect(statuses).toEqual([200, 402, 200, 200, 200, 200, 200, 200, 409, 200]);

    const line = (body: Record<string, unknown>, amount: string, replayed = false) => ({
      operatorId: 1,
      providerTxId: body.provider_tx_id,
      action: body.action,
      roundId: "ack-r1",
      userId: player.userId,
      amount,
      replayed,
      partition: mine,
    });
    expect(await logged()).toEqual([
      line(bet, "-1000"),
      line(win, "2500"),
      line(voided, "-700"),
      line(rollback, "700"),
      line(freeBet, "0"),
      line(bet, "-1000", true),
      {
        operatorId: 1,
        providerTxId: close.provider_tx_id,
        action: "CLOSE_ROUND",
        roundId: "ack-r1",
        userId: null,
        amount: "0",
        replayed: false,
        partition: partitionOf(1, roundKey("ack-r1"), partitions),
      },
    ]);
  });

  it("answers no 200 while Redis refuses the entry; the resend, once it takes it again, is applied once and logged", async () => {
    const { system, gateway } = running;
    const player = await authedPlayer(system, gateway, { balance: 5_000n });
    const partition = partitionOf(1, playerKey(player.userId), partitions);
    const key = redisNames(system.prefix).ackLog(partition);
    // The log's key holding another type: Redis refuses the XADD as it runs (WRONGTYPE).
    await redis.del(key);
    await redis.set(key, "not a stream");
    const bet = betBody(player, { action_id: "ack-r2", amount: 1_200 });
    const ofBet = async () => (await logged()).filter((call) => call.providerTxId === bet.provider_tx_id);
    const refused = await callGateway(gateway, "/withdraw", bet);
    expect([refused.status, refused.json.message]).toEqual([503, "the wallet did not answer in time; retry"]);
    // The ledger committed it before the answer was held back.
    expect(await balanceOf(system.ledger, player.playerId)).toBe(3_800n);
    // Still refused while the fault lasts: the resend's stored answer is held back too.
    expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(503);

    await redis.del(key);
    expect(await ofBet()).toEqual([]);
    const resent = await callGateway(gateway, "/withdraw", bet);
    expect([resent.status, resent.json.data?.new_balance]).toEqual([200, 3_800]);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(3_800n);
    const bets = (await journalOf(system.ledger, player.playerId)).filter((entry) => entry.kind === "BET");
    expect(bets.map((entry) => entry.amount)).toEqual([-1_200n]);
    expect(await countRows(system.ledger, "idempotency_records", String(bet.provider_tx_id))).toBe(1);
    expect(await ofBet()).toEqual([
      {
        operatorId: 1,
        providerTxId: bet.provider_tx_id,
        action: "BET",
        roundId: "ack-r2",
        userId: player.userId,
        amount: "-1200",
        replayed: true,
        partition,
      },
    ]);
  });
});
