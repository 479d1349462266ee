import type { ReconciliationDifference } from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectFailures } from "../schema/side-effect-failures.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { dataEndsBefore, roundsAtRisk } from "./rounds-at-risk.ts";

const ledger = useTestLedger();
const at = (second: number) => new Date(Date.UTC(2026, 10, 26, 2, 0, second));
// The point the surviving data ends at: 02:00:30.
const point = at(30);

describe("rounds at risk after the ledger lost its newest commits", () => {
  it("lists the rounds open at the point, closed since in mismatch, begun since and unclosed, or with effects but no close; no other", async () => {
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
    const reconciled = (
      roundId: string,
      status: "matched" | "mismatch",
      second: number,
      differences: ReconciliationDifference[] = [],
    ) => ({
      tenantId: 1,
      roundId,
      status,
      differences: JSON.stringify(differences),
      createdAt: at(second),
    });
    const platformBet = {
      kind: "platform_bet_not_found",
      index: 0,
      stake: 500,
      coefficient: 2,
      expectedPayout: 1000,
    } as const;
    const oursOnly = {
      kind: "operator_bet_not_in_close",
      providerTxId: "b-1",
      stake: 500,
      payout: 0,
    } as const;
    await ledger.db
      .insert(roundReconciliations)
      .values([
        reconciled("done-before", "matched", 11),
        reconciled("straddles-matched", "matched", 40),
        reconciled("straddles-mismatch", "mismatch", 42, [platformBet, oursOnly]),
        reconciled("after-matched", "matched", 45),
        reconciled("after-mismatch", "mismatch", 47, [oursOnly]),
        reconciled("before-mismatch-old", "mismatch", 13),
      ]);

    // Effects that arrived after the point: of closes the ledger holds (nothing to see), of closes it
    // lost (a receipt applied from the event's own summary; reporting's failure to read the close),
    // and one of before the point.
    const close = (roundId: string) => ({
      tenantId: 1,
      roundId,
      providerTxId: `${roundId}-close`,
      operatorTxId: `op-${roundId}`,
      game: "crashGame",
      betCount: 0,
      stakes: "[]",
      cashOutCoefficients: "[]",
    });
    await ledger.db.insert(roundCloses).values([close("after-matched"), close("after-mismatch")]);
    const receipt = (topic: string, roundId: string, second: number) => ({
      topic,
      eventId: `close-round:1:${roundId}`,
      createdAt: at(second),
    });
    await ledger.db
      .insert(sideEffectReceipts)
      .values([
        receipt("loyalty", "after-matched", 46),
        receipt("loyalty", "lost:close", 38),
        receipt("rg", "lost:close", 38),
        receipt("loyalty", "lost-before", 20),
      ]);
    await ledger.db.insert(sideEffectFailures).values({
      eventId: "close-round:2:lost-reporting",
      topic: "reporting",
      tenantId: 2,
      roundId: "lost-reporting",
      attempts: 1,
      lastError: "the stored CLOSE_ROUND of close-round:2:lost-reporting cannot be read for reconciliation",
      firstFailedAt: at(39),
      lastFailedAt: at(39),
    });

    const listed = await roundsAtRisk(ledger.db, { point });
    expect(
      Object.fromEntries(
        listed.map((entry) => [`${entry.tenantId}:${entry.roundId}`, `${entry.category} ${entry.reason}`]),
      ),
    ).toEqual({
      "1:open-at-point": "check open_at_point",
      "1:straddles-matched": "check open_at_point",
      // The close lists a bet ours do not match: a line acknowledged and lost.
      "1:straddles-mismatch": "lost mismatch",
      // Only a bet of ours the close leaves out: nothing the platform acknowledged is missing.
      "1:after-mismatch": "check mismatch",
      "1:after-unclosed": "check unclosed",
      "1:lost:close": "lost effects_without_close",
      "2:lost-reporting": "lost effects_without_close",
    });
    // Losses first.
    expect(listed.slice(0, 3).map((entry) => entry.category)).toEqual(["lost", "lost", "lost"]);
    expect(listed.find((entry) => entry.roundId === "straddles-mismatch")?.evidence).toEqual([
      "its close (reconciled 2026-11-26T02:00:42.000Z) lists 1 bet(s) ours do not match (platform_bet_not_found): a lost BET, FREE_BET or WIN",
      "open at the point the data ends",
    ]);
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
