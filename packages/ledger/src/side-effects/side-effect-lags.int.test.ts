import { type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { latestOutboxRow } from "../testing/outbox-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { applySideEffect } from "./apply-side-effect.ts";
import { relayOutbox, sideEffectLagsMs } from "./outbox-queries.ts";

/**
 * The benchmark's drain reads each close's lag with `sideEffectLagsMs`. Its statement named the lag
 * `AS lag`, a syntax error on MySQL 8.4 and TiDB (LAG is reserved there) that MariaDB accepts: run
 * here, the statement reaches the portability gate, which refuses such aliases (issue 42).
 */
const ledger = useTestLedger();

/** A round bet on and closed; its effects applied for `topics`. */
async function closedRound(roundId: string, topics: readonly SideEffectTopic[]): Promise<void> {
  const player = await playerWithSession(ledger, { balance: 10_000n });
  const bet = betBody(player, { amount: 1_000, action_id: roundId });
  expect((await sendWithdraw(ledger, bet)).status).toBe(200);
  expect((await sendDeposit(ledger, closeRoundBody(roundId, [1_000], [0]))).status).toBe(200);
  expect(await relayOutbox(ledger.ctx.db, async () => {})).toBe(1);
  const { payload } = await latestOutboxRow(ledger, "all");
  for (const topic of topics) await applySideEffect({ ctx: ledger.ctx, input: { topic, event: payload } });
}

describe("the drain's side-effect lags", () => {
  it("one lag per close whose four effects all landed, in milliseconds from its commit; a close still owed one is left out", async () => {
    const since = new Date(Date.now() - 60_000);
    await closedRound("lag-all-four", sideEffectTopics);
    await closedRound("lag-three", ["loyalty", "tournaments", "rg"]);
    const lags = await sideEffectLagsMs(ledger.ctx.db, since);
    expect(lags).toHaveLength(1);
    expect(lags.every((lag) => Number.isFinite(lag) && lag >= 0)).toBe(true);
    // Nothing closed after `since` moved past now.
    expect(await sideEffectLagsMs(ledger.ctx.db, new Date(Date.now() + 60_000))).toEqual([]);
  });
});
