import { describe, expect, it } from "vitest";
import { outbox } from "../schema/outbox.ts";
import { rowImageBytes } from "./row-bytes.ts";
import { productLimits, statementBudgets, transactionBudgets } from "./size-budgets.ts";
import { loggedGrowth, openFindings, overBudget, sizeReport, unbudgetedThreshold } from "./size-checks.ts";
import {
  maxAllowedPacket,
  maxEntry,
  maxTransaction,
  smallestPacket,
  smallestTransaction,
} from "./size-limits.ts";

const MiB = 1024 * 1024;
const named = (lines: string[]) => [...new Set(lines.map((line) => line.split(": ")[0]))];
const budget = (name: string) => statementBudgets().find((entry) => entry.name === name);
const transaction = (name: string) => transactionBudgets().find((entry) => entry.name === name);

describe("size budgets (size-budgets.ts)", () => {
  it("hold the product to the smallest limit of the three servers, each read where it is written", () => {
    expect(smallestPacket).toBe(16 * MiB); // MariaDB 10.11's max_allowed_packet
    expect(smallestTransaction).toBe(100 * MiB); // TiDB's txn-total-size-limit, under Group Replication's 150,000,000
    expect(maxEntry.bytes).toBe(6 * MiB);
    for (const limit of [...maxAllowedPacket, ...maxTransaction, maxEntry])
      expect(limit.source).toMatch(/^https:\/\//);
  });

  it("fit every statement, transaction and row in half its limit, but the open findings, pinned here", () => {
    expect(named(overBudget())).toEqual(Object.keys(openFindings));
  });

  it("fail when a limit of the product grows: twice the calls a batch may take overflows its reads", () => {
    expect(named(overBudget())).not.toContain("the group commit's reads and locks");
    const doubled = overBudget({ ...productLimits, maxBatchCalls: 2 * productLimits.maxBatchCalls });
    expect(named(doubled)).toContain("the group commit's reads and locks");
    expect(doubled.find((line) => line.startsWith("the group commit's reads"))).toMatch(
      /^the group commit's reads and locks: 11\.\d\d MiB a statement, over 8\.00 MiB \(2048 calls/,
    );
  });

  it("fail when a refused-close chunk takes four times its rows (the placeholder the merge fills)", () => {
    expect(named(overBudget({ ...productLimits, refusedClosesChunkRows: 80 }))).toContain(
      "retention of refused closes",
    );
  });

  it("compute a close's pieces and a refused-close chunk from their limits", () => {
    const pieces = transaction("a close's pieces");
    expect(pieces?.bytes).toBeGreaterThanOrEqual(16 * 128 * 1024);
    expect(pieces?.bytes).toBeLessThan(2.1 * MiB);
    expect(pieces?.largestRow).toBeLessThan(maxEntry.bytes / 2);
    expect(budget("a close piece")?.bytes).toBeGreaterThan(2 * 128 * 1024);
    const refused = transaction("retention of refused closes");
    expect(refused?.bytes).toBeGreaterThan(20 * MiB);
    expect(refused?.bytes).toBeLessThan(21 * MiB);
    expect(transaction("a migration's ALTER")?.bytes).toBe(0);
  });

  it("refuse a column with no size bound instead of leaving it out", () => {
    expect(() => rowImageBytes(outbox)).toThrow("outbox.payload (mediumtext) has no size bound");
  });
});

describe("the gate's size check (sizeReport)", () => {
  const piece =
    "INSERT INTO close_pieces (tenant_id, body_sha256, part, seq, bytes) VALUES (?) ON DUPLICATE KEY UPDATE seq = seq";
  const refused = "insert ignore into `refused_closes` (`id`, `body`) values (?)";

  it("reports each budget's largest statement and passes what fits (as logged, up to five times what was sent)", () => {
    const pieceBudget = budget("a close piece")?.bytes ?? 0;
    const { budgeted, problems } = sizeReport(
      new Map([
        [piece, { maxBytes: 655_555 }],
        ["SELECT 1", { maxBytes: unbudgetedThreshold }],
      ]),
    );
    expect(problems).toEqual([]);
    expect(budgeted.map(({ budget: { name }, largest }) => [name, largest])).toEqual([
      ["a close piece", 655_555],
    ]);
    expect(655_555).toBeLessThan(loggedGrowth * pieceBudget);
  });

  it("fails a statement over its budget, and a large shape with no budget, naming the shape", () => {
    const refusedBudget = budget("a refused close stored")?.bytes ?? 0;
    const { problems } = sizeReport(
      new Map([
        [refused, { maxBytes: loggedGrowth * refusedBudget + 1 }],
        ["SELECT a FROM t WHERE b IN (?)", { maxBytes: unbudgetedThreshold + 1 }],
      ]),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^a refused close stored: \d+ bytes logged, over its budget .*insert ignore into `refused_closes`/,
    );
    expect(problems[1]).toBe(
      `no size budget for a shape of ${unbudgetedThreshold + 1} bytes: SELECT a FROM t WHERE b IN (?)`,
    );
  });
});
