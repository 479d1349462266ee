import { lockRoundThenWallets, serverDeadlocks } from "@wallet/ledger/testing/locks";
import { newestRound } from "@wallet/ledger/testing/round-reads";
import { createTournament } from "@wallet/ledger/verbs/create-tournament";
import { sampleSum, scrape } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import { testTenants } from "../harness/fault-system.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";

// Many players in every round, spread over many partitions and three workers: their transactions run
// side by side on the shared rows of a round (and its tournament and reports). The ledger's own lock
// order makes these deadlock-free (measured: none), so the storm is forced on top: transactions of the
// test's own lock each round's row, then its players' wallets, the opposite order to a bet.
const running = useFaultSystem({
  workers: 3,
  players: 80,
  partitions: 32,
  env: { DB_POOL_SIZE: "16", SIDE_EFFECT_CONCURRENCY: "8" },
});

beforeAll(async () => {
  const { ctx } = running.system.ledger;
  const startsAt = new Date(Date.now() - 60_000);
  const endsAt = new Date(Date.now() + 3_600_000);
  for (const { operatorId } of testTenants)
    await createTournament({
      ctx,
      input: { tenantId: operatorId, game: "crashGame", name: "storm", startsAt, endsAt },
    });
});

async function ledgerRetries(system: typeof running.system, error: string): Promise<number> {
  let retried = 0;
  for (const worker of system.processes.filter((proc) => proc.name === "worker")) {
    retried += sampleSum(await scrape(worker.metricsPort ?? 0), "wallet_ledger_transaction_retries_total", {
      error,
    });
  }
  return retried;
}

describe("a deadlock storm: 80 players betting in the same rounds", () => {
  it("on its own: every bet of a round shares its rows, and nothing is lost or doubled", async () => {
    const { system, sim, players } = running;
    const before = await serverDeadlocks(system.ledger);
    const result = await underLoad(system, sim, players, "same-rounds", async () => {
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    });
    const deadlocks = (await serverDeadlocks(system.ledger)) - before;
    console.log(`[faults] same-rounds: ${deadlocks} InnoDB deadlocks with 80 players in every round`);
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(200);
    expect(result.sim.gaveUp).toBe(0);
  });

  it("deadlock victims run again whole: nothing lost, nothing doubled, nothing answered 5xx for good", async () => {
    const { system, sim, players } = running;
    const before = await serverDeadlocks(system.ledger);
    const retriedBefore = await ledgerRetries(system, "deadlock");
    const outcomes = { victim: 0, held: 0 };
    const result = await underLoad(system, sim, players, "deadlock-storm", async () => {
      const until = Date.now() + 10_000;
      const storm = async (tenantId: number) => {
        const mine = players
          .filter((player) => player.tenantId === tenantId)
          .map((player) => player.playerId);
        while (Date.now() < until) {
          const roundId = await newestRound(system.ledger, tenantId);
          if (roundId) outcomes[await lockRoundThenWallets(system.ledger, tenantId, roundId, mine, 30)] += 1;
        }
      };
      await Promise.all(testTenants.flatMap(({ operatorId }) => [storm(operatorId), storm(operatorId)]));
    });
    const deadlocks = (await serverDeadlocks(system.ledger)) - before;
    const retried = (await ledgerRetries(system, "deadlock")) - retriedBefore;
    console.log(
      `[faults] deadlock-storm: ${deadlocks} InnoDB deadlocks; the storm's transactions: ${outcomes.victim} victims, ` +
        `${outcomes.held} not; ${retried} ledger transactions run again`,
    );
    // The storm happened, and ledger transactions were among its victims, run again whole.
    expect(deadlocks).toBeGreaterThan(0);
    expect(retried).toBeGreaterThan(0);
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(200);
    expect(result.sim.gaveUp).toBe(0);
  });
});
