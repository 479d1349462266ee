import { describe, expect, it } from "vitest";
import { catalog } from "./catalog.ts";
import { formatSchedule, planSchedule, withoutFaults } from "./plan.ts";

describe("a campaign's schedule", () => {
  it("is the same for the same seed, printed the same, and different for another seed", () => {
    expect(formatSchedule(planSchedule(11, 5))).toBe(formatSchedule(planSchedule(11, 5)));
    expect(planSchedule(11, 5).faults).not.toEqual(planSchedule(12, 5).faults);
  });

  it("draws every kind of fault over enough seeds, inside the load's window", () => {
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const { faults } = planSchedule(seed, 3);
      for (const fault of faults) {
        kinds.add(fault.kind);
        expect(fault.atMs).toBeGreaterThanOrEqual(5_000);
        expect(fault.atMs).toBeLessThan(3 * 60_000 - 10_000);
      }
    }
    expect([...kinds].sort()).toEqual([...catalog.map((draw) => draw.kind), "failover"].sort());
  });

  it("fails the replicated topology over once, in the load's middle third, never while MariaDB is otherwise faulted", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const schedule = planSchedule(seed, 3, "semisync");
      const failovers = schedule.faults.filter((fault) => fault.kind === "failover");
      expect(failovers).toHaveLength(1);
      const [failover] = failovers;
      if (!failover) continue;
      expect(failover.atMs).toBeGreaterThanOrEqual(60_000);
      const end = failover.atMs + failover.durationMs + (failover.detail.returnMs ?? 0);
      for (const other of schedule.faults.filter((fault) => fault.kind.startsWith("mariadb-")))
        expect(other.atMs >= end || other.atMs + other.durationMs <= failover.atMs).toBe(true);
      expect(planSchedule(seed, 3, "single").faults.some((fault) => fault.kind === "failover")).toBe(false);
    }
  });

  it("adds certification storms through the third node on Galera, one at a time, the seed's other faults unchanged", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const schedule = planSchedule(seed, 3, "galera");
      const storms = schedule.faults.filter((fault) => fault.kind === "certification-storm");
      expect(storms.length).toBeGreaterThan(0);
      for (const [index, storm] of storms.entries()) {
        expect(storm.target).toBe("galera3");
        expect(storm.atMs).toBeLessThan(3 * 60_000 - 10_000);
        const next = storms[index + 1];
        if (next) expect(next.atMs).toBeGreaterThanOrEqual(storm.atMs + storm.durationMs);
      }
      const others = (topology: "galera" | "single") =>
        planSchedule(seed, 3, topology)
          .faults.filter((fault) => fault.kind !== "certification-storm")
          .map(({ index: _, ...fault }) => fault);
      expect(others("galera")).toEqual(others("single"));
      expect(
        planSchedule(seed, 3, "single").faults.some((fault) => fault.kind === "certification-storm"),
      ).toBe(false);
    }
  });

  it("never overlaps two faults on one resource, and does overlap faults on different ones", () => {
    let overlapping = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const { faults } = planSchedule(seed, 4);
      for (const [i, a] of faults.entries())
        for (const b of faults.slice(i + 1)) {
          const overlap = b.atMs < a.atMs + a.durationMs;
          const holdsA = catalog.find((draw) => draw.kind === a.kind)?.holds(a.target);
          const holdsB = catalog.find((draw) => draw.kind === b.kind)?.holds(b.target);
          if (overlap && holdsA === holdsB)
            throw new Error(`seed ${seed}: #${a.index} and #${b.index} overlap`);
          if (overlap) overlapping += 1;
        }
    }
    expect(overlapping).toBeGreaterThan(10);
  });

  it("drops exactly the faults the shrinker removes", () => {
    const schedule = planSchedule(5, 3);
    const kept = withoutFaults(schedule, new Set([0, 2]));
    expect(kept.faults.map((fault) => fault.index)).toEqual(
      schedule.faults.map((fault) => fault.index).filter((index) => index !== 0 && index !== 2),
    );
  });
});
