import { randomUUID } from "node:crypto";
import { sha256Hex } from "@wallet/contracts/hash";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Call, OutcomeOrError } from "../calls/call.ts";
import { mysqlErrno } from "../mysql-errors.ts";
import { balanceOf, countRows, journalOf } from "../testing/ledger-reads.ts";
import { runCalls } from "../testing/run-calls.ts";
import { openTestLedger, type TestLedger, useTestLedger } from "../testing/test-ledger.ts";
import { authenticate } from "../verbs/authenticate.ts";
import { createPlayer } from "../verbs/create-player.ts";
import { grantFreeBets } from "../verbs/grant-free-bets.ts";
import { mintUserToken } from "../verbs/mint-user-token.ts";
import { verifyLedger } from "../verify.ts";
import { WriteSet } from "./state.ts";
import { writeBatch } from "./writes.ts";

const batched = useTestLedger();
/** The same players and requests, run one call at a time: what every batch must equal. */
let alone: TestLedger;
beforeAll(async () => {
  alone = await openTestLedger(inject("mysqlServerUrl"));
});
afterAll(async () => {
  await alone?.drop();
});

interface Twin {
  userId: string;
  sessionToken: string;
  ids: { batched: number; alone: number };
}

/** One player with the same user id, session and balance in both ledgers. */
async function twinPlayer(balance: bigint, maxbet = 12_000n): Promise<Twin> {
  const userId = `twin-${randomUUID().slice(0, 12)}`;
  const sessionToken = `session-${randomUUID()}`;
  const ids = { batched: 0, alone: 0 };
  for (const [name, ledger] of [
    ["batched", batched],
    ["alone", alone],
  ] as const) {
    const { playerId } = await createPlayer({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId, username: userId, currency: "EUR", balance, maxbet },
    });
    ids[name] = playerId;
    const { userToken } = await mintUserToken({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId, ttlSeconds: 600 },
    });
    const auth = await authenticate({
      ctx: ledger.ctx,
      input: {
        tenantId: 1,
        body: { user_token: userToken, session_token: sessionToken, platform: "web", currency: "EUR" },
      },
    });
    if (auth.status !== 200) throw new Error(auth.body);
  }
  return { userId, sessionToken, ids };
}

function call(op: Call["op"], body: Record<string, unknown>): Call {
  const raw = JSON.stringify(body);
  return { op, tenantId: 1, body: JSON.parse(raw), bodySha256: sha256Hex(raw) };
}

const money = (twin: Twin, over: Record<string, unknown>) => ({
  currency: "EUR",
  provider: "platform-sim",
  game: "crashGame",
  session_token: twin.sessionToken,
  platform: "desktop",
  user_id: twin.userId,
  attributes: [],
  ...over,
});

/** The answer with our own random `operator_tx_id` blanked: the only thing that may differ between the two runs. */
function comparable(result: OutcomeOrError | undefined) {
  if (!result?.ok) return { error: String(result?.error) };
  const { status, body, replayed } = result.outcome;
  return { status, replayed, body: body.replace(/"operator_tx_id":"[^"]+"/, '"operator_tx_id":"…"') };
}

async function ledgerRows(ledger: TestLedger, playerId: number) {
  const journal = (await journalOf(ledger, playerId)).map(({ operatorTxId: _, ...line }) => line);
  const [bets] = (await ledger.db.execute(
    sql`SELECT provider_tx_id, kind, amount, status, won_amount, win_count, rollback_provider_tx_id FROM bets WHERE player_id = ${playerId} ORDER BY provider_tx_id`,
  )) as unknown as [unknown[]];
  // Each money line points at its bet: a BET line at itself, a WIN or ROLL_BACK line at the bet it settles.
  const [links] = (await ledger.db.execute(
    sql`SELECT j.kind, j.provider_tx_id AS line, b.provider_tx_id AS bet FROM journal_entries j LEFT JOIN bets b ON b.id = j.bet_id WHERE j.player_id = ${playerId} AND j.kind <> 'OPENING' ORDER BY j.id`,
  )) as unknown as [Array<{ kind: string; line: string; bet: string | null }>];
  for (const link of links) {
    if (link.kind === "BET") expect(link.bet).toBe(link.line);
    else expect(link.bet).not.toBeNull();
  }
  return { balance: await balanceOf(ledger, playerId), journal, bets, links: links.map((link) => link.bet) };
}

const step = fc.record({
  kind: fc.constantFrom(
    "bet",
    "bet",
    "bet",
    "win",
    "win",
    "rollback",
    "balance",
    "resend",
    "conflict",
    "stranger",
  ),
  player: fc.nat({ max: 2 }),
  amount: fc.integer({ min: 0, max: 9_000 }),
  round: fc.nat({ max: 1 }),
  pick: fc.nat(),
});

describe("group commit", () => {
  it("a batch answers and writes exactly what its calls would, run one at a time in the same order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const twins = [await twinPlayer(15_000n), await twinPlayer(3_000n), await twinPlayer(40_000n)];
        const bets: Array<{ twin: Twin; id: string; round: string; amount: number }> = [];
        const sent: Call[] = [];
        for (const { kind, player, amount, round, pick } of steps) {
          const twin = twins[player] as Twin;
          const roundId = `round-${twin.userId}-${round}`;
          const bet = bets[pick % Math.max(1, bets.length)];
          const earlier = sent[pick % Math.max(1, sent.length)];
          if (kind === "bet") {
            const id = `bet-${randomUUID()}`;
            bets.push({ twin, id, round: roundId, amount });
            sent.push(
              call(
                "withdraw",
                money(twin, { action: "BET", amount, provider_tx_id: id, action_id: roundId }),
              ),
            );
          } else if ((kind === "win" || kind === "rollback") && bet) {
            // Sometimes another player names this bet: a refusal, never a move of someone else's money.
            const who = pick % 4 === 0 ? (twins[(player + 1) % 3] as Twin) : bet.twin;
            const action = kind === "win" ? "WIN" : "ROLL_BACK";
            sent.push(
              call(
                "deposit",
                money(who, {
                  action,
                  amount: kind === "win" ? amount * 2 : bet.amount + (pick % 5 === 0 ? 1 : 0),
                  provider_tx_id: `${kind}-${randomUUID()}`,
                  withdraw_provider_tx_id: pick % 7 === 0 ? `never-seen-${randomUUID()}` : bet.id,
                  action_id: bet.round,
                }),
              ),
            );
          } else if (kind === "balance") {
            // With the player's own session, another player's, or none.
            const session = [twin.sessionToken, (twins[(player + 1) % 3] as Twin).sessionToken, undefined][
              pick % 3
            ];
            sent.push(call("balance", { user_id: twin.userId, currency: "EUR", session_token: session }));
          } else if (kind === "resend" && earlier) {
            sent.push(earlier);
          } else if (kind === "conflict" && earlier && earlier.op !== "balance") {
            const body = earlier.body as Record<string, unknown>;
            sent.push(call(earlier.op, { ...body, amount: Number(body.amount) + 1 }));
          } else if (kind === "stranger") {
            sent.push(
              call(
                "withdraw",
                money(twin, {
                  action: "BET",
                  amount: 10,
                  user_id: `nobody-${pick}`,
                  provider_tx_id: `s-${randomUUID()}`,
                  action_id: roundId,
                }),
              ),
            );
          }
        }
        if (sent.length === 0) return;
        const together = await runCalls(batched.ctx, sent);
        const oneByOne: OutcomeOrError[] = [];
        for (const each of sent) oneByOne.push(...(await runCalls(alone.ctx, [each])));
        expect(together.map(comparable)).toEqual(oneByOne.map(comparable));
        for (const twin of twins) {
          expect(await ledgerRows(batched, twin.ids.batched)).toEqual(
            await ledgerRows(alone, twin.ids.alone),
          );
        }
      }),
      { numRuns: 60 },
    );
    expect((await verifyLedger(batched.db)).problems).toEqual([]);
  });

  it("a rare verb between batched ones keeps its place: FREE_BET, then its FREE_BET_WIN, then a BET, in one call", async () => {
    const twin = await twinPlayer(5_000n);
    await grantFreeBets({ ctx: batched.ctx, input: { tenantId: 1, userId: twin.userId, count: 1 } });
    const free = `free-${randomUUID()}`;
    const results = await runCalls(batched.ctx, [
      call("withdraw", money(twin, { action: "FREE_BET", amount: 0, provider_tx_id: free, action_id: "fr" })),
      call(
        "deposit",
        money(twin, {
          action: "FREE_BET_WIN",
          amount: 700,
          provider_tx_id: `fwin-${randomUUID()}`,
          withdraw_provider_tx_id: free,
          action_id: "fr",
        }),
      ),
      call(
        "withdraw",
        money(twin, { action: "BET", amount: 200, provider_tx_id: `bet-${randomUUID()}`, action_id: "fr" }),
      ),
    ]);
    expect(
      results.map((result) => (result.ok ? JSON.parse(result.outcome.body).data.new_balance : result.error)),
    ).toEqual([5_000, 5_700, 5_500]);
    expect(await balanceOf(batched, twin.ids.batched)).toBe(5_500n);
  });

  it("CLOSE_ROUND in a batch with its round's bet and win: one close and four owed effects, a second close of the round answered with the first's answer, as one at a time", async () => {
    const twin = await twinPlayer(10_000n);
    const round = `close-${randomUUID().slice(0, 8)}`;
    const bet = `bet-${randomUUID()}`;
    const first = `${round}-1-close-round`;
    const close = (providerTxId: string) =>
      call("deposit", {
        amount: 0,
        provider: "platform-sim",
        provider_tx_id: providerTxId,
        game: "crashGame",
        action: "CLOSE_ROUND",
        action_id: round,
        attributes: [
          { name: "crashGameCashOutCoefficients", value: "[2]" },
          { name: "crashGameBets", value: "[1000]" },
        ],
      });
    const calls = [
      call("withdraw", money(twin, { action: "BET", amount: 1_000, provider_tx_id: bet, action_id: round })),
      call(
        "deposit",
        money(twin, {
          action: "WIN",
          amount: 2_000,
          provider_tx_id: `win-${randomUUID()}`,
          withdraw_provider_tx_id: bet,
          action_id: round,
        }),
      ),
      close(first),
      close(`${round}-again`),
      close(first),
    ];
    const together = await runCalls(batched.ctx, calls);
    const oneByOne: OutcomeOrError[] = [];
    for (const one of calls) oneByOne.push(...(await runCalls(alone.ctx, [one])));
    expect(together.map(comparable)).toEqual(oneByOne.map(comparable));

    const [closed, again, resent] = together
      .slice(2)
      .map((result) => (result.ok ? result.outcome : undefined));
    expect(closed).toMatchObject({ status: 200, replayed: false });
    expect(JSON.parse(closed?.body ?? "{}").data.provider_tx_id).toBe(first);
    expect(again).toEqual({ ...closed, replayed: true });
    expect(resent).toEqual({ ...closed, replayed: true });
    for (const ledger of [batched, alone]) {
      const [closes] = (await ledger.db.execute(
        sql`SELECT provider_tx_id, bet_count, stakes FROM round_closes WHERE round_id = ${round}`,
      )) as unknown as [unknown[]];
      expect(closes).toEqual([{ provider_tx_id: first, bet_count: 1, stakes: "[1000]" }]);
      const [owed] = (await ledger.db.execute(
        sql`SELECT topic, payload FROM outbox WHERE event_id = ${`close-round:1:${round}`} ORDER BY topic`,
      )) as unknown as [Array<{ topic: string; payload: string }>];
      expect(owed.map((row) => row.topic)).toEqual(["all"]); // one row owes the four effects
      expect(JSON.parse(owed[0]?.payload ?? "{}")).toMatchObject({
        tenantId: 1,
        roundId: round,
        providerTxId: first,
      });
      const [rounds] = (await ledger.db.execute(
        sql`SELECT closed_at IS NOT NULL AS closed FROM rounds WHERE round_id = ${round}`,
      )) as unknown as [Array<{ closed: number }>];
      expect(rounds.map((row) => Number(row.closed))).toEqual([1]);
    }
  });

  it("/balance by user answers the player's balance with their own session, 404 with another's", async () => {
    const twin = await twinPlayer(7_000n);
    const other = await twinPlayer(1n);
    const results = await runCalls(batched.ctx, [
      call("balance", { user_id: twin.userId, session_token: twin.sessionToken }),
      call("balance", { user_id: twin.userId, session_token: other.sessionToken }),
    ]);
    const [own, foreign] = results.map((result) =>
      result.ok ? JSON.parse(result.outcome.body) : result.error,
    );
    expect(own).toEqual({
      code: 200,
      message: "OK",
      data: { user_id: twin.userId, currency: "EUR", amount: 7000 },
    });
    expect(foreign).toEqual({ code: 404, message: "session not found" });
  });

  it("each call's refusal is its own: neighbours are applied, and every refusal is stored in the same transaction", async () => {
    const rich = await twinPlayer(50_000n);
    const poor = await twinPlayer(500n);
    const paid = `bet-${randomUUID()}`;
    const broke = `bet-${randomUUID()}`;
    const lost = `bet-${randomUUID()}`;
    const results = await runCalls(batched.ctx, [
      call("withdraw", money(rich, { action: "BET", amount: 2_000, provider_tx_id: paid, action_id: "r1" })),
      call("withdraw", money(poor, { action: "BET", amount: 2_000, provider_tx_id: broke, action_id: "r1" })),
      call(
        "withdraw",
        money(rich, { action: "BET", amount: 10, user_id: "nobody", provider_tx_id: lost, action_id: "r1" }),
      ),
      call(
        "withdraw",
        money(rich, {
          action: "BET",
          amount: 10,
          currency: "USD",
          provider_tx_id: `bet-${randomUUID()}`,
          action_id: "r1",
        }),
      ),
      call("withdraw", money(rich, { action: "BET", amount: 3_000, provider_tx_id: paid, action_id: "r1" })),
    ]);
    expect(results.map((result) => (result.ok ? result.outcome.status : 0))).toEqual([
      200, 402, 404, 400, 409,
    ]);
    expect(await balanceOf(batched, rich.ids.batched)).toBe(48_000n);
    expect(await balanceOf(batched, poor.ids.batched)).toBe(500n);
    for (const id of [paid, broke, lost]) expect(await countRows(batched, "idempotency_records", id)).toBe(1);
    // A refusal's retry gets the stored bytes back, not a fresh decision.
    const retry = await runCalls(batched.ctx, [
      call("withdraw", money(poor, { action: "BET", amount: 2_000, provider_tx_id: broke, action_id: "r1" })),
    ]);
    const [first, again] = [results[1], retry[0]];
    expect(again?.ok && again.outcome.replayed).toBe(true);
    expect(again?.ok && first?.ok && again.outcome.body === first.outcome.body).toBe(true);
  });

  it("a call the database refuses fails alone: the batch is rolled back and its other calls rerun one by one", async () => {
    const first = await twinPlayer(10_000n);
    const second = await twinPlayer(10_000n);
    const refused = await twinPlayer(10_000n);
    // A refusal the rules cannot foresee (since the balance range, a credit can no longer overflow
    // BIGINT): a test trigger that fails the insert of one bet (MariaDB error 1644).
    await batched.db.execute(
      sql.raw(
        "CREATE TRIGGER refuse_poison_bet BEFORE INSERT ON bets FOR EACH ROW " +
          "IF NEW.provider_tx_id LIKE 'poison-%' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'poison'; END IF",
      ),
    );
    try {
      const bet = (twin: Twin, amount: number, id: string) =>
        call("withdraw", money(twin, { action: "BET", amount, provider_tx_id: id, action_id: "r" }));
      const results = await runCalls(batched.ctx, [
        bet(first, 1_000, `bet-${randomUUID()}`),
        bet(refused, 5_000, `poison-${randomUUID()}`),
        bet(second, 2_500, `bet-${randomUUID()}`),
      ]);
      expect(results[0]?.ok && results[0].outcome.status).toBe(200);
      expect(results[1]?.ok).toBe(false);
      expect(mysqlErrno(results[1]?.ok ? undefined : results[1]?.error)).toBe(1644);
      expect(results[2]?.ok && results[2].outcome.status).toBe(200);
    } finally {
      await batched.db.execute(sql.raw("DROP TRIGGER IF EXISTS refuse_poison_bet"));
    }
    expect(await balanceOf(batched, first.ids.batched)).toBe(9_000n);
    expect(await balanceOf(batched, second.ids.batched)).toBe(7_500n);
    expect(await balanceOf(batched, refused.ids.batched)).toBe(10_000n);
    expect((await journalOf(batched, refused.ids.batched)).map((line) => line.kind)).toEqual(["OPENING"]);
  });

  it("batches locking the same wallets in opposite call orders wait for each other and never deadlock", async () => {
    const twins = await Promise.all([1, 2, 3, 4].map(() => twinPlayer(1_000_000n, 10n ** 9n)));
    const retries: Array<number | undefined> = [];
    const ctx = { ...batched.ctx, onTransactionRetry: (errno: number | undefined) => retries.push(errno) };
    const callsFor = (order: Twin[]) =>
      order.map((twin) =>
        call(
          "withdraw",
          money(twin, { action: "BET", amount: 10, provider_tx_id: `bet-${randomUUID()}`, action_id: "r" }),
        ),
      );
    for (let round = 0; round < 25; round++) {
      const settled = await Promise.all([
        runCalls(ctx, callsFor(twins)),
        runCalls(ctx, callsFor([...twins].reverse())),
      ]);
      expect(settled.flat().every((result) => result.ok && result.outcome.status === 200)).toBe(true);
    }
    expect(retries).toEqual([]);
    for (const twin of twins) expect(await balanceOf(batched, twin.ids.batched)).toBe(1_000_000n - 50n * 10n);
  });

  it("a write that does not match the rows the batch locked stops the round trip before COMMIT", async () => {
    const twin = await twinPlayer(1_000n);
    const writes = new WriteSet();
    writes.walletDeltas.set(twin.ids.batched, { balance: 5n, lines: 0 });
    writes.walletDeltas.set(987_654_321, { balance: 5n, lines: 0 });
    const connection = await batched.ctx.batch.getConnection();
    try {
      await connection.query("START TRANSACTION");
      const error = await writeBatch(connection, writes).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      // The guard's duplicate key in write_checks (writes.ts), before COMMIT.
      expect(mysqlErrno(error)).toBe(1062);
      await connection.query("ROLLBACK");
    } finally {
      connection.release();
    }
    expect(await balanceOf(batched, twin.ids.batched)).toBe(1_000n);
  });
});
