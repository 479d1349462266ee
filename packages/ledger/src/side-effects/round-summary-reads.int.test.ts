import { closeRoundEventId } from "@wallet/contracts/side-effects";
import type { RowDataPacket } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../db.ts";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { testsOwn } from "../testing/general-log.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { readRoundSummaries } from "./round-summary.ts";

/**
 * The relay's summary reads name every round of a turn in each of their four statements (issue 42):
 * in round trips of at most `summaryRoundsPerRead` rounds, so a turn at OUTBOX_RELAY_BATCH's maximum
 * stays a few MiB a packet. Two rounds a round trip here.
 */
const ledger = useTestLedger();
// One multi-statement connection: its session counters see exactly the reads under test.
let single: Database;
beforeAll(() => {
  single = createDatabase({ url: ledger.url, batchPoolSize: 1 });
});
afterAll(async () => {
  await single?.close();
});

async function selects(): Promise<number> {
  // The test's own statement on the product's connection (`testsOwn`): the portability gate leaves it out.
  const [rows] = (await single.batch.query(
    `${testsOwn}SHOW SESSION STATUS LIKE 'Com_select'`,
  )) as unknown as [RowDataPacket[]];
  return Number(rows[0]?.Value);
}

describe("the relay's round summaries (readRoundSummaries)", () => {
  it("five rounds, two a round trip: three round trips of four reads, every round's summary whole", async () => {
    const rounds: Array<{ roundId: string; playerId: number; stake: number }> = [];
    for (let index = 0; index < 5; index++) {
      const player = await playerWithSession(ledger, { balance: 100_000n });
      const roundId = `summary-${index}-${Date.now()}`;
      const stake = 1_000 * (index + 1);
      expect(
        (await sendWithdraw(ledger, betBody(player, { amount: stake, action_id: roundId }))).status,
      ).toBe(200);
      expect((await sendDeposit(ledger, closeRoundBody(roundId, [stake], [0]))).status).toBe(200);
      rounds.push({ roundId, playerId: player.playerId, stake });
    }
    const events = rounds.map(({ roundId }) => ({
      eventId: closeRoundEventId(1, roundId),
      tenantId: 1,
      roundId,
      game: "crashGame",
      providerTxId: `${roundId}-1-close-round`,
    }));

    const before = await selects();
    const summaries = await readRoundSummaries({ ...ledger.ctx, batch: single.batch }, events, 2);
    expect((await selects()) - before).toBe(3 * 4);
    expect(rounds.map(({ roundId }) => summaries.get(closeRoundEventId(1, roundId))?.players)).toEqual(
      rounds.map(({ playerId, stake }) => [
        { playerId, currency: "EUR", staked: String(stake), won: "0", bets: 1 },
      ]),
    );
  });
});
