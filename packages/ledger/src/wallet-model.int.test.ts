import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { betBody, settleBody, txId } from "./testing/callback-bodies.ts";
import { balanceOf } from "./testing/ledger-reads.ts";
import { playerWithSession } from "./testing/players.ts";
import { type Answer, sendDeposit, sendWithdraw } from "./testing/send-callbacks.ts";
import { useTestLedger } from "./testing/test-ledger.ts";
import { WalletModel } from "./testing/wallet-model.ts";
import { verifyLedger } from "./verify.ts";

const ledger = useTestLedger();

const OPENING = 20_000n;
const MAXBET = 12_000n;

/** One step; `pick` chooses among the bet ids or earlier requests seen so far. */
const operation = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("bet" as const),
      amount: fc.integer({ min: 0, max: 9_000 }),
      round: fc.integer({ min: 0, max: 2 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("win" as const),
      pick: fc.nat(),
      amount: fc.integer({ min: 0, max: 20_000 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("rollback" as const),
      pick: fc.nat(),
      wrongAmount: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("lateBet" as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("duplicate" as const), pick: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("conflict" as const), pick: fc.nat() }), weight: 1 },
);

type Sent = {
  endpoint: "withdraw" | "deposit";
  body: Record<string, unknown>;
  answer: Answer;
  balanceAfter: bigint;
};

describe("the ledger against an in-memory model of the wallet", () => {
  it("agrees on every status and balance for random BET / WIN / ROLL_BACK / duplicate / conflicting sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        const player = await playerWithSession(ledger, { balance: OPENING, maxbet: MAXBET });
        const model = new WalletModel(OPENING, MAXBET);
        const sent: Sent[] = [];
        const firstAnswerByKey = new Map<string, Answer>();
        const betIds: Array<{ id: string; round: string; amount: number }> = [];
        const unsentBetIds: Array<{ id: string; round: string; amount: number }> = [];

        const send = async (endpoint: Sent["endpoint"], body: Record<string, unknown>) => {
          const answer =
            endpoint === "withdraw" ? await sendWithdraw(ledger, body) : await sendDeposit(ledger, body);
          return answer;
        };
        const check = (answer: Answer, expectedStatus: number, expectedBalance: bigint) => {
          expect(answer.status).toBe(expectedStatus);
          if (expectedStatus === 200)
            expect(BigInt(answer.json.data?.new_balance as number)).toBe(expectedBalance);
        };
        const record = (endpoint: Sent["endpoint"], body: Record<string, unknown>, answer: Answer) => {
          sent.push({ endpoint, body, answer, balanceAfter: model.balance });
          firstAnswerByKey.set(body.provider_tx_id as string, answer);
        };
        const targetBet = (pick: number) => {
          // Mostly a bet we sent; sometimes one the platform never delivered.
          if (betIds.length === 0 || pick % 5 === 0) {
            const unknown = {
              id: txId("unseen-bet"),
              round: `round-${pick % 3}`,
              amount: 500 + (pick % 7) * 100,
            };
            unsentBetIds.push(unknown);
            return unknown;
          }
          return betIds[pick % betIds.length] as { id: string; round: string; amount: number };
        };

        for (const op of operations) {
          switch (op.kind) {
            case "bet":
            case "lateBet": {
              // A late bet is one the platform had not delivered yet; once sent it is an ordinary bet.
              const late =
                op.kind === "lateBet"
                  ? unsentBetIds.splice(op.pick % Math.max(1, unsentBetIds.length), 1)[0]
                  : undefined;
              if (op.kind === "lateBet" && !late) break;
              const target = late ?? {
                id: txId("bet"),
                round: `round-${op.kind === "bet" ? op.round : 0}`,
                amount: op.kind === "bet" ? op.amount : 0,
              };
              const body = betBody(player, {
                provider_tx_id: target.id,
                amount: target.amount,
                action_id: target.round,
              });
              const expected = model.bet(target.id, BigInt(target.amount), target.round);
              const answer = await send("withdraw", body);
              check(answer, expected.status, expected.balance);
              betIds.push(target);
              record("withdraw", body, answer);
              break;
            }
            case "win": {
              const bet = targetBet(op.pick);
              const body = settleBody(
                player,
                { provider_tx_id: bet.id, action_id: bet.round, game: "crashGame", amount: bet.amount },
                "WIN",
                { amount: op.amount },
              );
              const expected = model.win(bet.id, BigInt(op.amount));
              const answer = await send("deposit", body);
              check(answer, expected.status, expected.balance);
              record("deposit", body, answer);
              break;
            }
            case "rollback": {
              const bet = targetBet(op.pick);
              const amount = bet.amount + (op.wrongAmount ? 1 : 0);
              const body = settleBody(
                player,
                { provider_tx_id: bet.id, action_id: bet.round, game: "crashGame", amount },
                "ROLL_BACK",
              );
              const expected = model.rollback(
                body.provider_tx_id as string,
                bet.id,
                BigInt(amount),
                bet.round,
              );
              const answer = await send("deposit", body);
              if (expected.replaysKeyOf) {
                // The first rollback's answer, as it was then (its new_balance is from that moment).
                expect(answer.raw).toBe(firstAnswerByKey.get(expected.replaysKeyOf)?.raw);
              } else {
                check(answer, expected.status, expected.balance);
              }
              record("deposit", body, answer);
              break;
            }
            case "duplicate": {
              const earlier = sent[op.pick % Math.max(1, sent.length)];
              if (!earlier) break;
              const answer = await send(earlier.endpoint, earlier.body);
              expect(answer.raw).toBe(earlier.answer.raw);
              break;
            }
            case "conflict": {
              const earlier = sent[op.pick % Math.max(1, sent.length)];
              if (!earlier) break;
              const answer = await send(earlier.endpoint, {
                ...earlier.body,
                amount: (earlier.body.amount as number) + 1,
              });
              expect(answer.status).toBe(409);
              expect(answer.json.data).toEqual(earlier.answer.json);
              break;
            }
          }
          expect(await balanceOf(ledger, player.playerId)).toBe(model.balance);
        }
      }),
      { numRuns: 150 },
    );
    expect((await verifyLedger(ledger.db)).problems).toEqual([]);
  });
});
