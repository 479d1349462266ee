import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { describe, expect, it } from "vitest";
import { checkInvariants } from "./invariants.ts";
import type { LaunchedPlayer, SeenAnswer } from "./platform-load.ts";

// The fault suite's verdicts are only as good as this checker: each rule must catch its own breach.
const ledger = useTestLedger();

async function oneBet() {
  const player = await playerWithSession(ledger, { balance: 100_000n });
  const bet = betBody(player, { amount: 1_000 });
  const answer = await sendWithdraw(ledger, bet);
  expect(answer.json.data?.new_balance).toBe(99_000);
  const launched: LaunchedPlayer = { tenantId: 1, userId: player.userId, playerId: player.playerId };
  const seen: SeenAnswer = {
    label: "BET",
    operatorId: 1,
    providerTxId: bet.provider_tx_id as string,
    userId: player.userId,
    amount: 1_000,
    status: 200,
    attempts: 1,
    operatorTxId: answer.json.data?.operator_tx_id as string,
    balance: 99_000,
    roundId: bet.action_id as string,
    path: "/withdraw",
    request: JSON.stringify(bet),
    reply: answer.raw,
    invokedAt: Date.now(),
    answeredAt: Date.now(),
    settles: null,
  };
  return { launched, seen };
}

const check = (players: LaunchedPlayer[], answers: SeenAnswer[]) =>
  checkInvariants(ledger, players, answers, 1_000).then((report) => report.problems);

describe("the fault suite's invariant checker", () => {
  it("passes what the ledger really recorded", async () => {
    const { launched, seen } = await oneBet();
    expect(await check([launched], [seen])).toEqual([]);
  });

  it("names an acknowledged callback the ledger does not hold", async () => {
    const { launched, seen } = await oneBet();
    const ghost = { ...seen, providerTxId: "never-sent" };
    expect(await check([launched], [seen, ghost])).toEqual(["BET never-sent: acknowledged but not recorded"]);
  });

  it("names a wrong kind, a wrong amount and a balance the journal never had", async () => {
    const { launched, seen } = await oneBet();
    const id = seen.providerTxId;
    expect(await check([launched], [{ ...seen, label: "WIN" }])).toEqual([`WIN ${id}: recorded as BET`]);
    expect(await check([launched], [{ ...seen, amount: 2_000 }])).toEqual([
      `BET ${id}: recorded amount -1000, sent 2000`,
    ]);
    const told = { ...seen, balance: 98_000 };
    expect(await check([launched], [told])).toEqual([
      `BET ${id}: answered balance 98000, journal says 99000`,
      `player ${seen.userId}: platform last saw 98000, wallet holds 99000`,
    ]);
  });

  it("names a wallet whose last balance differs from the last one the platform was told", async () => {
    const { launched, seen } = await oneBet();
    const later: SeenAnswer = { ...seen, label: "/auth", providerTxId: null, amount: null, balance: 12_345 };
    expect(await check([launched], [seen, later])).toEqual([
      `player ${seen.userId}: platform last saw 12345, wallet holds 99000`,
    ]);
    // Unless a later callback of that player was never answered: the platform cannot know then.
    const lost: SeenAnswer = { ...seen, providerTxId: "lost", status: 0, balance: null };
    expect(await check([launched], [seen, later, lost])).toEqual([]);
  });
});
