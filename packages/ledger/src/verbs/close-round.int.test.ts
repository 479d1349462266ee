import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox } from "../schema/outbox.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { rounds } from "../schema/rounds.ts";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";

const ledger = useTestLedger();

async function outboxOf(roundId: string, tenantId = 1) {
  return ledger.db
    .select({ topic: outbox.topic, eventId: outbox.eventId, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.tenantId, tenantId)))
    .orderBy(asc(outbox.id))
    .then((rows) => rows.filter((row) => JSON.parse(row.payload).roundId === roundId));
}

describe("CLOSE_ROUND", () => {
  it("records the close with its arrays, touches no balance and writes one outbox row owing all four effects", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: "round-close-1" }));
    const close = closeRoundBody("round-close-1", [1_000], [2.5]);
    const answer = await sendDeposit(ledger, close);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      code: 200,
      message: "OK",
      data: { operator_tx_id: expect.any(String), provider_tx_id: "round-close-1-1-close-round" },
    });
    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING", "BET"]);

    const [record] = await ledger.db
      .select()
      .from(roundCloses)
      .where(eq(roundCloses.roundId, "round-close-1"));
    expect(record).toMatchObject({
      tenantId: 1,
      betCount: 1,
      stakes: "[1000]",
      cashOutCoefficients: "[2.5]",
    });
    const [round] = await ledger.db.select().from(rounds).where(eq(rounds.roundId, "round-close-1"));
    expect(round?.closedAt).toBeInstanceOf(Date);
    const rows = await outboxOf("round-close-1");
    expect(rows.map((row) => [row.topic, row.eventId])).toEqual([["all", "close-round:1:round-close-1"]]);
  });

  it("a duplicate delivery replays the first answer and owes no second set of side effects", async () => {
    const close = closeRoundBody("round-close-2", [100, 200], [0, 1.9]);
    const first = await sendDeposit(ledger, close);
    const again = await sendDeposit(ledger, close);
    expect(again.raw).toBe(first.raw);
    const underOtherId = await sendDeposit(ledger, {
      ...close,
      provider_tx_id: "another-id-for-round-close-2",
    });
    expect(underOtherId.raw).toBe(first.raw);
    expect(await outboxOf("round-close-2")).toHaveLength(1);
  });

  it("20 concurrent deliveries of the same close write one outbox row, not twenty", async () => {
    const close = closeRoundBody("round-close-race", [100], [1.5]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendDeposit(ledger, close)));
    expect(new Set(answers.map((answer) => answer.raw)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(await outboxOf("round-close-race")).toHaveLength(1);
  });

  it("answers 400 for arrays of different length, and records nothing", async () => {
    const answer = await sendDeposit(ledger, closeRoundBody("round-close-3", [100, 200], [1.5]));
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/crashGameCashOutCoefficients has 1 items but crashGameBets has 2/);
    expect(await outboxOf("round-close-3")).toHaveLength(0);
    expect(
      await ledger.db.select().from(roundCloses).where(eq(roundCloses.roundId, "round-close-3")),
    ).toHaveLength(0);
  });

  it("answers 400 for unparsable attributes or a missing one, and records nothing", async () => {
    const good = closeRoundBody("round-close-4", [100], [1.5]);
    const notJson = {
      ...good,
      attributes: [{ name: "crashGameCashOutCoefficients", value: "[1.5" }, good.attributes[1]],
    };
    const floats = { ...good, attributes: [good.attributes[0], { name: "crashGameBets", value: "[1.5]" }] };
    const missing = { ...good, attributes: [good.attributes[0]] };
    for (const [body, message] of [
      [notJson, /crashGameCashOutCoefficients must be a JSON-encoded array of decimal numbers/],
      [floats, /crashGameBets must be a JSON-encoded array of integer millis/],
      [missing, /attribute crashGameBets is required/],
    ] as const) {
      const answer = await sendDeposit(ledger, body);
      expect(answer.status).toBe(400);
      expect(answer.json.message).toMatch(message);
    }
    expect(await outboxOf("round-close-4")).toHaveLength(0);
  });

  it("never answers 402: a close arrives fine for a player with no money and for a round with no bets here", async () => {
    const player = await playerWithSession(ledger, { balance: 1_000n });
    await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: "round-close-5" }));
    expect((await sendDeposit(ledger, closeRoundBody("round-close-5", [1_000], [0]))).status).toBe(200);
    expect((await sendDeposit(ledger, closeRoundBody("round-never-bet", [7], [0]))).status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(0n);
  });

  it("ignores what a close does not need (player fields, amount, other attributes) and records it", async () => {
    const close = closeRoundBody("round-close-6", [1], [0]);
    const answer = await sendDeposit(ledger, {
      ...close,
      user_id: "someone",
      session_token: "s",
      amount: 5,
      attributes: [{ name: "createDate", value: "2026-11-24T10:00:00Z" }, ...close.attributes],
    });
    expect(answer.status).toBe(200);
    const [record] = await ledger.db
      .select()
      .from(roundCloses)
      .where(eq(roundCloses.roundId, "round-close-6"));
    expect(record).toMatchObject({ betCount: 1, stakes: "[1]", cashOutCoefficients: "[0]" });
    expect(await outboxOf("round-close-6")).toHaveLength(1);
  });

  it("closes are per tenant: the same round closed by two operators is two closes", async () => {
    expect((await sendDeposit(ledger, closeRoundBody("round-shared", [1], [0], 1), 1)).status).toBe(200);
    expect((await sendDeposit(ledger, closeRoundBody("round-shared", [2], [0], 2), 2)).status).toBe(200);
    expect(await outboxOf("round-shared", 1)).toHaveLength(1);
    expect(await outboxOf("round-shared", 2)).toHaveLength(1);
  });
});
