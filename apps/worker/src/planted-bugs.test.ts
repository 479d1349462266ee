import { describe, expect, it } from "vitest";
import { partitionJobsAtOnce, plantedBugRates, plantedLedgerHooks, selectedOneIn } from "./planted-bugs.ts";

describe("the planted bugs' rule of one in N", () => {
  it("picks about one key in N, and always the same keys", () => {
    const keys = Array.from({ length: 20_000 }, (_, index) => `bet-${index}`);
    for (const n of Object.values(plantedBugRates)) {
      const picked = keys.filter((key) => selectedOneIn(n, key));
      expect(picked.length).toBeGreaterThan((keys.length / n) * 0.8);
      expect(picked.length).toBeLessThan((keys.length / n) * 1.2);
      expect(keys.filter((key) => selectedOneIn(n, key))).toEqual(picked);
    }
  });
});

describe("with no planted bug", () => {
  it("the ledger gets no hook and a partition runs one job at a time", () => {
    expect(plantedLedgerHooks(undefined)).toEqual({});
    expect(partitionJobsAtOnce(undefined)).toBe(1);
    expect(partitionJobsAtOnce("early-partition-unlock")).toBe(4);
  });
});
