import { describe, expect, it } from "vitest";
import type { FaultSystem } from "../harness/fault-system.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import type { FaultProxy } from "../proxy/fault-proxy.ts";

// Every app reaches MariaDB and Redis only through the suite's own TCP proxy (faults/src/proxy).
const running = useFaultSystem({ workers: 2, players: 12, deadlineMs: 2_000 });
const faultMs = 5_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const proxies: Array<[string, (system: FaultSystem) => FaultProxy]> = [
  ["MariaDB", (system) => system.dbProxy],
  ["Redis", (system) => system.redisProxy],
];

describe("a faulty network between the apps and their servers, under load", () => {
  it.each(proxies)("%s: 40 ms each way on every packet for 5 s", async (server, proxyOf) => {
    const { system, sim, players } = running;
    const proxy = proxyOf(system);
    const result = await underLoad(system, sim, players, `latency-${server.toLowerCase()}`, async () => {
      proxy.setLatency(40);
      await pause(faultMs);
      proxy.setLatency(0);
    });
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.sim.gaveUp).toBe(0);
    expect(result.recoveryMs).toBeLessThan(15_000);
  });

  it.each(proxies)("%s: every connection reset, every 500 ms for 5 s", async (server, proxyOf) => {
    const { system, sim, players } = running;
    const proxy = proxyOf(system);
    let resets = 0;
    const result = await underLoad(system, sim, players, `resets-${server.toLowerCase()}`, async () => {
      for (let round = 0; round < faultMs / 500; round++) {
        resets += proxy.resetAll();
        await pause(500);
      }
    });
    console.log(`[faults] resets-${server.toLowerCase()}: ${resets} connections reset`);
    expect(resets).toBeGreaterThan(0);
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.sim.gaveUp).toBe(0);
    expect(result.recoveryMs).toBeLessThan(15_000);
  });

  it.each(proxies)(
    "%s: black-holed for 5 s (a partition: silence, then the held bytes)",
    async (server, proxyOf) => {
      const { system, sim, players } = running;
      const proxy = proxyOf(system);
      const result = await underLoad(system, sim, players, `blackhole-${server.toLowerCase()}`, async () => {
        proxy.setMode("blackhole");
        await pause(faultMs);
        proxy.setMode("pass");
      });
      expect(result.problems).toEqual([]);
      expect(result.acknowledged).toBeGreaterThan(0);
      expect(result.sim.gaveUp).toBe(0);
      // The platform saw the partition: callbacks it had to retry.
      expect(result.sim.retries).toBeGreaterThan(0);
      expect(result.recoveryMs).toBeLessThan(15_000);
    },
  );
});
