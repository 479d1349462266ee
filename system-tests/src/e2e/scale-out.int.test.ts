import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, authedPlayer, callGateway, useTestSystem } from "../harness/system.ts";

const system = useTestSystem({ partitions: 4 });
let gateways: AppProcess[];
beforeAll(async () => {
  await Promise.all([system.startWorker({ LOG_LEVEL: "debug" }), system.startWorker({ LOG_LEVEL: "debug" })]);
  gateways = await Promise.all([system.startGateway(), system.startGateway()]);
}, 60_000);

describe("two gateways and two workers", () => {
  it("interleaved players each see their callbacks applied in the order they were acknowledged", async () => {
    const [first, second] = gateways as [AppProcess, AppProcess];
    const players = await Promise.all(
      Array.from({ length: 12 }, () => authedPlayer(system, first, { balance: 100_000n })),
    );
    const STEPS = 8;
    const sentOrder = new Map<number, string[]>();
    await Promise.all(
      players.map(async (player, index) => {
        const order: string[] = [];
        sentOrder.set(player.playerId, order);
        for (let step = 0; step < STEPS; step++) {
          // Alternate gateways per call, so consecutive callbacks of a player cross processes.
          const gateway = (index + step) % 2 === 0 ? first : second;
          const bet = betBody(player, { amount: 100 + step, action_id: `round-${index}-${step}` });
          const placed = await callGateway(gateway, "/withdraw", bet);
          expect(placed.status).toBe(200);
          order.push(bet.provider_tx_id as string);
          const other = gateway === first ? second : first;
          const win = settleBody(player, bet, "WIN", { amount: 150 + step });
          expect((await callGateway(other, "/deposit", win)).status).toBe(200);
          order.push(win.provider_tx_id as string);
        }
      }),
    );
    for (const player of players) {
      const journal = await journalOf(system.ledger, player.playerId);
      const moves = journal.filter((row) => row.kind !== "OPENING");
      expect(moves.map((row) => row.providerTxId)).toEqual(sentOrder.get(player.playerId));
      // Each balance_after follows from the one before: nothing applied out of order or twice.
      let running = 100_000n;
      for (const row of moves) {
        running += row.amount;
        expect(row.balanceAfter).toBe(running);
      }
      expect(await balanceOf(system.ledger, player.playerId)).toBe(running);
    }
    // Both workers took part.
    const jobsDone = system.processes
      .filter((proc) => proc.name === "worker")
      .map((proc) => proc.logs.filter((line) => line.includes('"job done"')).length);
    expect(jobsDone.every((count) => count > 0)).toBe(true);
    expect((await verifyLedger(system.ledger.db)).problems).toEqual([]);
  });

  it("a player's burst sent without waiting still applies one callback at a time, never overdrawing", async () => {
    const player = await authedPlayer(system, gateways[0] as AppProcess, { balance: 1_000n });
    const bets = Array.from({ length: 10 }, (_, step) =>
      betBody(player, { amount: 300, action_id: `burst-${step}` }),
    );
    const answers = await Promise.all(
      bets.map((bet, index) => callGateway(gateways[index % 2] as AppProcess, "/withdraw", bet)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402, 402, 402, 402, 402]);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(100n);
  });

  it("a worker stopped with SIGTERM mid-load finishes its job, exits 0, and the other worker carries on", async () => {
    const player = await authedPlayer(system, gateways[0] as AppProcess, { balance: 100_000n });
    const leaving = system.processes.find((proc) => proc.name === "worker" && proc.child.exitCode === null);
    if (!leaving) throw new Error("no running worker");
    const bets = Array.from({ length: 40 }, (_, step) =>
      betBody(player, { amount: 100, action_id: `term-${step}` }),
    );
    const answers: Array<Promise<{ status: number }>> = [];
    for (const [index, bet] of bets.entries()) {
      answers.push(callGateway(gateways[index % 2] as AppProcess, "/withdraw", bet));
      if (index === 10) void system.stop(leaving, "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual(Array(40).fill(200));
    expect(await leaving.exited).toBe(0);
    expect(leaving.logs.some((line) => line.includes('"worker stopped"'))).toBe(true);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(100_000n - 40n * 100n);
  });
});
