import { describe, expect, it } from "vitest";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";

// The callback deadline is 2 s: each freeze lasts more than twice that.
const deadlineMs = 2_000;
const freezeMs = 5_000;
const running = useFaultSystem({ workers: 2, players: 12, deadlineMs });

describe("SIGSTOP, then SIGCONT, for longer than the callback deadline", () => {
  it.each([
    ["MariaDB", "sigstop-mariadb"],
    ["Redis", "sigstop-redis"],
  ] as const)(
    "%s: callbacks past their deadline answer 503, the platform's retries are answered once",
    async (server, name) => {
      const { system, sim, players } = running;
      const target = server === "MariaDB" ? system.mariadb : system.redis;
      const result = await underLoad(system, sim, players, name, async () => {
        await target.signal("SIGSTOP");
        await new Promise((resolve) => setTimeout(resolve, freezeMs));
        await target.signal("SIGCONT");
      });
      expect(result.problems).toEqual([]);
      expect(result.acknowledged).toBeGreaterThan(0);
      expect(result.sim.gaveUp).toBe(0);
      // The platform did see the freeze: callbacks it had to retry.
      expect(result.sim.retries).toBeGreaterThan(0);
      expect(result.recoveryMs).toBeLessThan(15_000);
    },
  );
});
