import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, authedPlayer, callWithRetry, useTestSystem } from "../harness/system.ts";

const system = useTestSystem({ partitions: 4, deadlineMs: 1_500 });
let gateways: AppProcess[];
let victim: AppProcess;
beforeAll(async () => {
  [victim] = await Promise.all([system.startWorker(), system.startWorker()]);
  gateways = await Promise.all([system.startGateway(), system.startGateway()]);
}, 60_000);

describe("a worker killed with SIGKILL under load", () => {
  it("loses nothing, doubles nothing, and its partitions serve again within seconds", async () => {
    const players = await Promise.all(
      Array.from({ length: 16 }, () =>
        authedPlayer(system, gateways[0] as AppProcess, { balance: 1_000_000n }),
      ),
    );
    const acknowledged: string[] = [];
    const expected = new Map<number, bigint>();
    let slowest = 0;
    let killedAt = 0;

    const killer = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      killedAt = performance.now();
      await system.stop(victim, "SIGKILL");
    })();

    await Promise.all(
      players.map(async (player, index) => {
        let balance = 1_000_000n;
        for (let step = 0; step < 12; step++) {
          const bet = betBody(player, { amount: 1_000 + step, action_id: `crash-${index}-${step}` });
          const placed = await callWithRetry(gateways, "/withdraw", bet, { attempts: 60, backoffMs: 100 });
          expect(placed.status).toBe(200);
          acknowledged.push(bet.provider_tx_id as string);
          balance -= BigInt(bet.amount as number);
          expect(BigInt(placed.json.data?.new_balance as number)).toBe(balance);
          const win = settleBody(player, bet, "WIN", { amount: 500 });
          const started = performance.now();
          const paid = await callWithRetry(gateways, "/deposit", win, { attempts: 60, backoffMs: 100 });
          slowest = Math.max(slowest, performance.now() - started);
          expect(paid.status).toBe(200);
          acknowledged.push(win.provider_tx_id as string);
          balance += 500n;
        }
        expected.set(player.playerId, balance);
      }),
    );
    const loadEndedAt = performance.now();
    await killer;
    // The kill landed while callbacks were still flowing.
    expect(killedAt).toBeGreaterThan(0);
    expect(killedAt).toBeLessThan(loadEndedAt);

    // Every acknowledged callback is in the journal exactly once; balances are what the platform was told.
    const journaled = new Map<string, number>();
    for (const player of players) {
      for (const row of await journalOf(system.ledger, player.playerId)) {
        if (row.providerTxId) journaled.set(row.providerTxId, (journaled.get(row.providerTxId) ?? 0) + 1);
      }
      expect(await balanceOf(system.ledger, player.playerId)).toBe(expected.get(player.playerId));
    }
    expect(acknowledged.filter((id) => journaled.get(id) !== 1)).toEqual([]);
    expect(journaled.size).toBe(acknowledged.length);
    expect((await verifyLedger(system.ledger.db)).problems).toEqual([]);
    // The killed worker's partitions came back: no callback waited longer than a few seconds in all.
    console.log(`slowest callback through the kill, retries included: ${Math.round(slowest)} ms`);
    expect(slowest).toBeLessThan(10_000);
  }, 120_000);
});
