import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { betBody, settleBody, txId } from "./testing/callback-bodies.ts";
import { balanceOf } from "./testing/ledger-reads.ts";
import { playerWithSession, type TestPlayer } from "./testing/players.ts";
import { type Answer, sendDeposit, sendWithdraw } from "./testing/send-callbacks.ts";
import { useTestLedger } from "./testing/test-ledger.ts";
import type { WalletCommand } from "./testing/wallet-model/commands.ts";
import { openWallet, type WalletState } from "./testing/wallet-model/state.ts";
import { stepWallet } from "./testing/wallet-model/step.ts";
import { adjustBalance } from "./verbs/adjust-balance.ts";
import { grantFreeBets } from "./verbs/grant-free-bets.ts";
import { verifyLedger } from "./verify.ts";

const ledger = useTestLedger();

const OPENING = 20_000n;
const MAXBET = 12_000n;

/** One step; `pick` chooses among the bets or the requests sent so far. */
const operation = fc.oneof(
  fc.record({
    kind: fc.constant("BET" as const),
    amount: fc.integer({ min: 0, max: 9_000 }),
    round: fc.nat(2),
  }),
  fc.record({ kind: fc.constant("FREE_BET" as const), round: fc.nat(2) }),
  fc.record({ kind: fc.constant("grant" as const), count: fc.integer({ min: 1, max: 2 }) }),
  fc.record({
    kind: fc.constant("WIN" as const),
    pick: fc.nat(),
    amount: fc.integer({ min: 0, max: 9_000 }),
  }),
  fc.record({
    kind: fc.constant("FREE_BET_WIN" as const),
    pick: fc.nat(),
    named: fc.boolean(),
    amount: fc.integer({ min: 0, max: 9_000 }),
  }),
  fc.record({ kind: fc.constant("ROLL_BACK" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("adjust" as const), amount: fc.integer({ min: -30_000, max: 30_000 }) }),
  fc.record({ kind: fc.constant("resend" as const), pick: fc.nat(), conflict: fc.boolean() }),
);

type Request = {
  command: WalletCommand;
  send: () => Promise<Answer>;
  resend: (conflict: boolean) => Request;
};
type Placed = { id: string; round: string; free: boolean };

/** A callback: the exact bytes sent are the model's idempotency identity. */
function callback(
  player: TestPlayer,
  endpoint: "withdraw" | "deposit",
  body: Record<string, unknown>,
  command: (raw: string) => WalletCommand,
): Request {
  const raw = JSON.stringify(body);
  const send = endpoint === "withdraw" ? sendWithdraw : sendDeposit;
  return {
    command: command(raw),
    send: () => send(ledger, body, 1, raw),
    resend: (conflict) =>
      callback(
        player,
        endpoint,
        conflict ? { ...body, amount: (body.amount as number) + 1 } : body,
        (again) => ({
          ...command(again),
          ...(conflict ? { amount: BigInt((body.amount as number) + 1) } : {}),
        }),
      ),
  };
}

/** An adjustment as the operator API hands it to the ledger (which answers 200; the API says 201 when applied). */
function adjustment(player: TestPlayer, amount: number, reference: string): Request {
  const body = { user_id: player.userId, amount, reason: "cashier", reference };
  const raw = JSON.stringify(body);
  const bodySha256 = createHash("sha256").update(raw).digest("hex");
  return {
    command: { kind: "adjust", reference, amount: BigInt(amount), body: raw },
    send: async () => {
      const outcome = await adjustBalance({ ctx: ledger.ctx, input: { tenantId: 1, body, bodySha256 } });
      const json = JSON.parse(outcome.body);
      return { status: outcome.status, raw: outcome.body, json, replayed: outcome.replayed, anomalies: [] };
    },
    resend: (conflict) => adjustment(player, conflict ? amount + 1 : amount, reference),
  };
}

describe("the ledger against the wallet model: free bets, adjustments and resends", () => {
  it("agrees on every status and balance", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
        const player = await playerWithSession(ledger, { balance: OPENING, maxbet: MAXBET });
        let model: WalletState = openWallet({ balance: OPENING, maxbet: MAXBET, currency: player.currency });
        const sent: Request[] = [];
        const placed: Placed[] = [];
        // Mostly a bet placed; sometimes one the ledger never saw.
        const target = (pick: number, free: boolean) => {
          const ofKind = placed.filter((bet) => bet.free === free);
          return pick % 5 === 0 ? undefined : ofKind[pick % Math.max(1, ofKind.length)];
        };

        for (const step of operations) {
          const key = txId(step.kind.toLowerCase());
          let request: Request | undefined;
          switch (step.kind) {
            case "BET":
            case "FREE_BET": {
              const round = `round-${step.round}`;
              const amount = step.kind === "BET" ? step.amount : 0;
              const body = betBody(player, {
                provider_tx_id: key,
                amount,
                action: step.kind,
                action_id: round,
              });
              request = callback(player, "withdraw", body, (raw) => ({
                kind: step.kind,
                key,
                body: raw,
                round,
                amount: BigInt(amount),
                currency: player.currency,
              }));
              placed.push({ id: key, round, free: step.kind === "FREE_BET" });
              break;
            }
            case "grant": {
              await grantFreeBets({
                ctx: ledger.ctx,
                input: { tenantId: 1, userId: player.userId, count: step.count },
              });
              const granted = stepWallet(model, { kind: "grant-free-bets", count: step.count });
              expect(granted.answer.status).toBe(201);
              model = granted.state;
              continue;
            }
            case "WIN":
            case "FREE_BET_WIN": {
              const free = step.kind === "FREE_BET_WIN";
              const bet = target(step.pick, free) ?? { id: txId("unseen"), round: "round-0", free };
              const named = !free || step.named;
              const over = {
                provider_tx_id: key,
                amount: step.amount,
                ...(named ? {} : { withdraw_provider_tx_id: undefined }),
              };
              const body = settleBody(
                player,
                { provider_tx_id: bet.id, action_id: bet.round, game: "crashGame" },
                step.kind,
                over,
              );
              request = callback(player, "deposit", body, (raw) => ({
                kind: step.kind,
                key,
                body: raw,
                round: bet.round,
                amount: BigInt(step.amount),
                betKey: named ? bet.id : null,
                currency: player.currency,
              }));
              break;
            }
            case "ROLL_BACK": {
              const bet = placed[step.pick % Math.max(1, placed.length + 1)] ?? {
                id: txId("unseen"),
                round: "round-1",
                free: false,
              };
              const body = settleBody(
                player,
                { provider_tx_id: bet.id, action_id: bet.round, game: "crashGame", amount: 100 },
                "ROLL_BACK",
                { provider_tx_id: key },
              );
              request = callback(player, "deposit", body, (raw) => ({
                kind: "ROLL_BACK",
                key,
                body: raw,
                round: bet.round,
                amount: 100n,
                betKey: bet.id,
                currency: player.currency,
              }));
              break;
            }
            case "adjust":
              request = step.amount === 0 ? undefined : adjustment(player, step.amount, key);
              break;
            case "resend":
              request = sent[step.pick % Math.max(1, sent.length)]?.resend(step.conflict);
              break;
          }
          if (!request) continue;
          const expected = stepWallet(model, request.command);
          const answer = await request.send();
          // The ledger answers an adjustment 200; the operator API turns a first one into 201.
          expect(answer.status).toBe(expected.answer.status === 201 ? 200 : expected.answer.status);
          if (expected.answer.balance !== null) {
            const data = answer.json.data ?? {};
            expect(BigInt((data.new_balance ?? data.balance) as number)).toBe(expected.answer.balance);
          }
          model = expected.state;
          sent.push(request);
          expect(await balanceOf(ledger, player.playerId)).toBe(model.balance);
        }
      }),
      { numRuns: 60 },
    );
    expect((await verifyLedger(ledger.db)).problems).toEqual([]);
  });
});
