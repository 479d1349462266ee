import { retryDeadSideEffects } from "@wallet/ledger/side-effects/dead-letters";
import {
  failedAttempts,
  failuresOf,
  repairUnreadableClose,
  seedUnreadableClose,
} from "@wallet/ledger/testing/dead-letters";
import { eventually } from "@wallet/system-tests/harness/system";
import { describe, expect, it } from "vitest";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";

/** Two attempts, a sweep (3 s) apart: dead within seconds, so the scenario sees all of it under load. */
const running = useFaultSystem({ workers: 2, players: 12, env: { SIDE_EFFECT_MAX_ATTEMPTS: "2" } });

describe("a side effect that fails every time, under load", () => {
  it("is dead after its attempts while every other round's effects land; retried after the fix, applied once", async () => {
    const { system, sim, players } = running;
    const seen = { dead: [] as Awaited<ReturnType<typeof failuresOf>>, attemptsLater: 0, attemptsAtDeath: 0 };
    const result = await underLoad(system, sim, players, "stranded-effect", async () => {
      // A close stored with unreadable arrays (edited by hand, say), in the middle of the platform's traffic.
      await seedUnreadableClose(system.ledger.db, 1, "stranded-round");
      seen.dead = await eventually(
        async () => {
          const failures = await failuresOf(system.ledger.db, "stranded-round");
          return failures.length > 0 && failures.every((failure) => failure.dead) ? failures : undefined;
        },
        30_000,
        "the stranded round's reporting dead",
      );
      seen.attemptsAtDeath = await failedAttempts(system.ledger.db);
      // Several sweeps later: no further attempt, the dead row is not republished.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      seen.attemptsLater = await failedAttempts(system.ledger.db);
      // The fix and the retry an SRE would run (`pnpm side-effects retry --dead`).
      await repairUnreadableClose(system.ledger.db, 1, "stranded-round");
      await retryDeadSideEffects(system.ledger.db, { tenantId: 1, roundId: "stranded-round" });
    });
    // Only reporting reads the close's arrays: its effect dies, the other three landed.
    expect(seen.dead).toEqual([{ topic: "reporting", attempts: 2, dead: true }]);
    expect(seen.attemptsLater).toBe(seen.attemptsAtDeath);
    // The invariants count the stranded round too: its four receipts and its report, once each.
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.sim.gaveUp).toBe(0);
    expect(await failuresOf(system.ledger.db, "stranded-round")).toEqual([]);
  });
});
