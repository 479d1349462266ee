import { limits } from "@wallet/contracts/limits";
import { describe, expect, it } from "vitest";
import { callBatchBytes } from "../batch/batch-bytes.ts";
import { rowOverheadBytes } from "../retention/expired-chunk.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { outbox } from "../schema/outbox.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { outboxRowMaxBytes } from "../side-effects/outbox-queries.ts";
import { rowImageBytes, rowLiteralBytes } from "./row-bytes.ts";
import { productLimits, statementBudgets, transactionBudgets } from "./size-budgets.ts";
import { loggedGrowth, overBudget, sizeReport, unbudgetedThreshold } from "./size-checks.ts";
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

  it("fit every statement, transaction and row in half its limit: no open finding", () => {
    expect(overBudget()).toEqual([]);
  });

  it("fail when a limit of the product grows: twice the calls a batch may take overflows its reads", () => {
    const doubled = overBudget({ ...productLimits, maxBatchCalls: 2 * productLimits.maxBatchCalls });
    expect(named(doubled)).toContain("the group commit's reads and locks");
    expect(doubled.find((line) => line.startsWith("the group commit's reads"))).toMatch(
      /^the group commit's reads and locks: 11\.\d\d MiB a statement, over 8\.00 MiB \(2048 calls/,
    );
  });

  it("fail where each of issue 42's findings was, should its bound grow back", () => {
    const over = (changed: Partial<typeof productLimits>) =>
      named(overBudget({ ...productLimits, ...changed }));
    // An audit line that kept a manual close's whole request (8 MiB): over the entry limit by itself.
    expect(over({ auditDetailBytes: limits.closeBody.max })).toEqual([
      "an audit line",
      "retention of the audit trail",
    ]);
    // A batch's bytes twice the budget, a side-effect transaction of ten times the players, the relay's
    // summaries of a whole turn at OUTBOX_RELAY_BATCH's maximum, the outbox's chunk at its 10,000 rows.
    expect(over({ maxBatchBytes: 2 * productLimits.maxBatchBytes })).toEqual(["the group commit's writes"]);
    expect(over({ effectUnits: 10 * productLimits.effectUnits })).toEqual(["the side effects' round trips"]);
    expect(over({ summaryRounds: 5_000 })).toEqual(["the relay's round summaries"]);
    expect(over({ outboxPruneRows: productLimits.maxPruneChunk })).toEqual(["retention of the outbox"]);
  });

  it("fail when retention's byte budget passes half the transaction limit: 7 × pruneBudgetBytes is 56 MiB", () => {
    const grown = overBudget({ ...productLimits, pruneBudgetBytes: 7 * productLimits.pruneBudgetBytes });
    expect(named(grown)).toEqual(["retention of refused closes", "retention of the audit trail"]);
    expect(grown[0]).toMatch(/^retention of refused closes: 56\.00 MiB a transaction, over 50\.00 MiB/);
  });

  it("compute a close's pieces and the retention chunks from their limits", () => {
    const pieces = transaction("a close's pieces");
    expect(pieces?.bytes).toBeGreaterThanOrEqual(16 * 128 * 1024);
    expect(pieces?.bytes).toBeLessThan(2.1 * MiB);
    expect(pieces?.largestRow).toBeLessThan(maxEntry.bytes / 2);
    expect(budget("a close piece")?.bytes).toBeGreaterThan(2 * 128 * 1024);
    // A chunk of the operator's records is at most its byte budget, or one row larger than it.
    expect(transaction("retention of refused closes")?.bytes).toBe(8 * MiB);
    expect(transaction("retention of the audit trail")?.bytes).toBe(8 * MiB);
    expect(transaction("retention of the outbox")?.bytes).toBe(
      1_024 * rowImageBytes(outbox, { "outbox.payload": 4 * 6 * 157 + 1024 }),
    );
    expect(transaction("a migration's ALTER")?.bytes).toBe(0);
  });

  it("hold what the product's weights and chunks count on to the schema's bounds", () => {
    // A close read whole (64 KiB) weighs at least its row as an INSERT, its arrays grown 17/5.
    const arrays = Math.ceil((17 / 5) * productLimits.closeInlineBytes);
    const closeRow = rowLiteralBytes(roundCloses, {
      "round_closes.stakes": arrays,
      "round_closes.cash_out_coefficients": 0,
    });
    expect(closeRow).toBeLessThan(callBatchBytes(productLimits.closeInlineBytes));
    // An outbox row is within what its retention chunk counts each row as.
    expect(rowImageBytes(outbox, { "outbox.payload": 4 * 6 * 157 + 1024 })).toBeLessThanOrEqual(
      outboxRowMaxBytes,
    );
    // A chunk weighs a row as its large columns' LENGTH and rowOverheadBytes: at least its image.
    // (A refused close's message is one of its large columns: VARCHAR of 2,000 characters, 4 bytes each.)
    const message = 4 * limits.refusalMessage.max + 2;
    expect(rowImageBytes(refusedCloses, { "refused_closes.body": 0 }) - message).toBeLessThanOrEqual(
      rowOverheadBytes,
    );
    expect(rowImageBytes(operatorActions, { "operator_actions.detail": 0 })).toBeLessThanOrEqual(
      rowOverheadBytes,
    );
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
