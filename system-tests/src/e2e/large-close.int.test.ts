import { randomUUID } from "node:crypto";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * Issue 31, point 1: a valid CLOSE_ROUND at the top of the documented size (620,000 bets, about 7.1
 * MiB, under CLOSE_ROUND_BODY_LIMIT_BYTES) naming bets the wallet never saw. It is answered 200
 * within the deadline, its four effects are applied with a reconciliation stored (a mismatch listing
 * every unknown bet in its figures, the list itself capped), and other players' callbacks, sent
 * all along, are never answered 5xx. Before the fix the reporting effect tried to store a mismatch
 * list of 20-60 MB, broke its connection, and stalled the worker's event loop: other players got
 * 503s for minutes and the effect died without a report.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const BETS = 620_000;

/** A close of `BETS` bets we never saw (7.1 MiB): stakes of 1 to 1,000 units, three quarters cashed out. */
function largeClose(round: string) {
  const stakes = Array.from({ length: BETS }, (_, i) => 1_000 + ((i * 7919) % 999_000));
  const coefficients = Array.from({ length: BETS }, (_, i) => (i % 4 === 0 ? 0 : 1 + ((i * 31) % 900) / 100));
  return closeRoundBody(round, stakes, coefficients);
}

/** Players betting and winning, each call after the last one's answer, until `stop`; every status counted. */
async function playersMeanwhile(players: Awaited<ReturnType<typeof authedPlayer>>[], stop: () => boolean) {
  const statuses: number[] = [];
  const slowest = { ms: 0 };
  await Promise.all(
    players.map(async (player, index) => {
      for (let step = 0; !stop(); step++) {
        const round = `meanwhile-${index}-${step}`;
        const bet = betBody(player, { amount: 100, action_id: round });
        for (const body of [bet, settleBody(player, bet, "WIN", { amount: 150 })]) {
          const path = body === bet ? "/withdraw" : "/deposit";
          const answer = await callGateway(gateway, path, body, { timeoutMs: 30_000 });
          statuses.push(answer.status);
          slowest.ms = Math.max(slowest.ms, answer.ms);
        }
        const balance = await callGateway(gateway, "/balance", { user_id: player.userId });
        statuses.push(balance.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  return { statuses, slowestMs: slowest.ms };
}

describe("a CLOSE_ROUND of 620,000 bets the wallet never saw", () => {
  it("is answered 200 within the deadline, its four effects applied with a reconciliation stored, and no other callback is answered 5xx meanwhile", async () => {
    const players = await Promise.all([0, 1, 2, 3].map(() => authedPlayer(system, gateway)));
    const round = `large-close-${randomUUID().slice(0, 8)}`;
    const close = largeClose(round);
    const bytes = Buffer.byteLength(JSON.stringify(close));
    expect(bytes).toBeGreaterThan(7 * 1024 * 1024);
    expect(bytes).toBeLessThan(8 * 1024 * 1024);

    let done = false;
    const load = playersMeanwhile(players, () => done);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answer = await callGateway(gateway, "/deposit", close, { timeoutMs: 30_000 });
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(2_500);
    let status: Record<string, unknown>;
    try {
      status = await sideEffectsApplied(api, round, 90_000);
      // A little more load after the effects landed: a stall would show after the work, too.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      done = true;
      await load.catch(() => {});
    }
    const { statuses, slowestMs } = await load;
    console.log(
      `close answered in ${Math.round(answer.ms)} ms; ${statuses.length} other callbacks, slowest ${Math.round(slowestMs)} ms`,
    );
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((code) => code >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200]));

    const reconciliation = status.reconciliation as {
      status: string;
      differences: Array<{ kind: string; index?: number }>;
      summary: Record<string, { count: number; stake: string }>;
    };
    expect(reconciliation.status).toBe("mismatch");
    // Every unknown bet counted and summed, the list of them capped.
    const stakeSum = (close.attributes[1]?.value ? (JSON.parse(close.attributes[1].value) as number[]) : [])
      .reduce((sum, stake) => sum + BigInt(stake), 0n)
      .toString();
    expect(reconciliation.summary).toMatchObject({
      platform_bet_not_found: { count: BETS, stake: stakeSum },
      operator_bet_not_in_close: { count: 0, stake: "0" },
    });
    expect(reconciliation.differences.length).toBeLessThanOrEqual(100);
    expect(reconciliation.differences[0]).toMatchObject({ kind: "platform_bet_not_found", index: 0 });
    expect(status.report).toMatchObject({ betCount: 0, reconciliation: "mismatch" });
  }, 180_000);
});
