import { testCrashPointEnv } from "@wallet/system-tests/harness/env";
import { describe, expect, it } from "vitest";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";

const running = useFaultSystem({ workers: 2, players: 12 });
/** How long a killed server or gateway stays down: longer than the callback deadline (2 s). */
const outageMs = 3_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every scenario must show: nothing lost, nothing doubled, the platform never gave up, back in seconds. */
function expectHeld(result: Awaited<ReturnType<typeof underLoad>>) {
  expect(result.problems).toEqual([]);
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.sim.gaveUp).toBe(0);
  expect(result.recoveryMs).toBeLessThan(15_000);
}

describe("SIGKILL under load, then a restart as an orchestrator would", () => {
  it("a worker: its partitions move to the other, its in-flight job is replayed or retried", async () => {
    const { system, sim, players } = running;
    let replacement: Promise<unknown> = Promise.resolve();
    const result = await underLoad(system, sim, players, "sigkill-worker", async () => {
      const victim = system.processes.find((proc) => proc.name === "worker" && proc.child.exitCode === null);
      if (!victim) throw new Error("no worker");
      await system.stop(victim, "SIGKILL");
      // The survivor must serve at once: recovery is timed from the kill, the replacement boots meanwhile.
      replacement = system.startWorker();
    });
    await replacement;
    expectHeld(result);
  });

  it.each([
    [
      "a group-committed ledger transaction (writes sent, COMMIT not): none of that batch lands, each callback is retried and applied once",
      "batch-before-commit",
    ],
    [
      "the relay, between its claim (committed) and its publish: the sweep republishes, each side effect applied once",
      "relay-mid-batch",
    ],
    [
      "a consumer's transaction of several rounds (effects written, COMMIT not): each side effect applied once",
      "consumer-mid-batch",
    ],
  ] as const)("a worker killed mid-batch in %s", async (_where, point) => {
    const { system, sim, players } = running;
    let replacement: Promise<unknown> = Promise.resolve();
    let killed = false;
    const result = await underLoad(system, sim, players, `sigkill-${point}`, async () => {
      // The only worker left dies at its first batch of two or more (jobs, or rounds), at that step.
      const healthy = system.processes.filter(
        (proc) => proc.name === "worker" && proc.child.exitCode === null,
      );
      const faulty = await system.startWorker(testCrashPointEnv(point));
      await Promise.all(healthy.map((proc) => system.stop(proc, "SIGTERM")));
      await Promise.race([faulty.exited, pause(30_000)]);
      killed = faulty.child.signalCode === "SIGKILL";
      replacement = system.startWorker();
      await replacement;
    });
    await replacement;
    expect(killed).toBe(true);
    // The invariants include one receipt per topic per close, loyalty and rg recomputed from the journal.
    expectHeld(result);
  });

  it("a gateway: the platform's retries reach its replacement", async () => {
    const { system, sim, players } = running;
    const result = await underLoad(system, sim, players, "sigkill-gateway", async () => {
      if (!system.gateway) throw new Error("no gateway");
      await system.stop(system.gateway, "SIGKILL");
      await pause(outageMs);
      await system.startGateway();
    });
    expectHeld(result);
  });

  it.each([
    ["Redis", "restarted empty: queues, replies and heartbeats are rebuilt, the outbox republished"],
    ["MariaDB", "restarted: crash recovery keeps every committed callback, the pools reconnect"],
  ] as const)("%s, %s", async (server, _what) => {
    const { system, sim, players } = running;
    const target = server === "Redis" ? system.redis : system.mariadb;
    const result = await underLoad(system, sim, players, `sigkill-${server.toLowerCase()}`, async () => {
      await target.signal("SIGKILL");
      await pause(outageMs);
      await target.restart();
    });
    expectHeld(result);
  });
});
