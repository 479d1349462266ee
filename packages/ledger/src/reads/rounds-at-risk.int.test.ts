import { describe, expect, it } from "vitest";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { dataEndsBefore, roundsAtRisk } from "./rounds-at-risk.ts";

const ledger = useTestLedger();
const at = (second: number) => new Date(Date.UTC(2026, 10, 26, 2, 0, second));
// The point the surviving data ends at: 02:00:30.
const point = at(30);

describe("rounds at risk after the ledger lost its newest commits", () => {
  it("lists the rounds open at the point, closed since in mismatch, or begun since and unclosed; no other", async () => {
    const round = (roundId: string, created: number, closed?: number) => ({
      tenantId: 1,
      roundId,
      game: "crashGame",
      createdAt: at(created),
      closedAt: closed === undefined ? null : at(closed),
    });
    await ledger.db
      .insert(rounds)
      .values([
        round("done-before", 1, 10),
        round("open-at-point", 20),
        round("straddles-matched", 25, 40),
        round("straddles-mismatch", 26, 41),
        round("after-matched", 35, 45),
        round("after-mismatch", 36, 46),
        round("after-unclosed", 37),
        round("before-mismatch-old", 2, 12),
      ]);
    const reconciled = (roundId: string, status: "matched" | "mismatch", second: number) => ({
      tenantId: 1,
      roundId,
      status,
      differences: "[]",
      createdAt: at(second),
    });
    await ledger.db
      .insert(roundReconciliations)
      .values([
        reconciled("done-before", "matched", 11),
        reconciled("straddles-matched", "matched", 40),
        reconciled("straddles-mismatch", "mismatch", 42),
        reconciled("after-matched", "matched", 45),
        reconciled("after-mismatch", "mismatch", 47),
        reconciled("before-mismatch-old", "mismatch", 13),
      ]);

    const listed = await roundsAtRisk(ledger.db, { point });
    expect(Object.fromEntries(listed.map((entry) => [entry.roundId, entry.reason]))).toEqual({
      "open-at-point": "open_at_point",
      "straddles-matched": "open_at_point",
      "straddles-mismatch": "mismatch",
      "after-mismatch": "mismatch",
      "after-unclosed": "unclosed",
    });
    expect(listed.find((entry) => entry.roundId === "straddles-matched")?.closedAt).toEqual(at(40));
  });

  it("finds where the surviving data ends: the newest answer stored before the failover", async () => {
    const stored = (providerTxId: string, second: number) => ({
      tenantId: 1,
      providerTxId,
      bodySha256: "0".repeat(64),
      action: "BET",
      status: 200,
      response: "{}",
      createdAt: at(second),
    });
    await ledger.db.insert(idempotencyRecords).values([stored("a", 5), stored("b", 29), stored("c", 50)]);
    expect(await dataEndsBefore(ledger.db, at(40))).toEqual(at(29));
    expect(await dataEndsBefore(ledger.db, at(1))).toBeUndefined();
  });
});
