import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { describe, expect, it } from "vitest";
import { authedPlayer, callGateway, useRunningSystem } from "../harness/system.ts";

const running = useRunningSystem();
const system = running.system;

describe("concurrent identical callbacks", () => {
  it("50 identical BETs in parallel debit once and get 50 equal answers", async () => {
    const player = await authedPlayer(system, running.gateway, { balance: 10_000n });
    const bet = betBody(player, { amount: 2_500 });
    const raw = JSON.stringify(bet);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => callGateway(running.gateway, "/withdraw", bet, { raw })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(answers[0]?.json.data?.new_balance).toBe(7_500);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(7_500n);
    expect(
      (await journalOf(system.ledger, player.playerId)).filter((row) => row.kind === "BET"),
    ).toHaveLength(1);
  });

  it("50 ROLL_BACKs of one bet under 50 ids, in parallel, refund once", async () => {
    const player = await authedPlayer(system, running.gateway, { balance: 10_000n });
    const bet = betBody(player, { amount: 4_000 });
    await callGateway(running.gateway, "/withdraw", bet);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        callGateway(running.gateway, "/deposit", settleBody(player, bet, "ROLL_BACK")),
      ),
    );
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(10_000n);
    expect(
      (await journalOf(system.ledger, player.playerId)).filter((row) => row.kind === "ROLL_BACK"),
    ).toHaveLength(1);
  });
});
