import { type RoundReport, roundReportEventId } from "../side-effects.ts";

/**
 * A round report as version 1 wrote it (money as JSON numbers), with sums of 1e16 millis: past 2^53,
 * so no version 1 schema held it. `upgraded` is what the wallet makes of it (`readRoundReport`).
 */
export function versionOneReport(operatorId: number, roundId: string, closedAt = new Date().toISOString()) {
  const common = {
    eventId: roundReportEventId(operatorId, roundId),
    operatorId,
    roundId,
    game: "crashGame",
    closedAt,
    betCount: 2,
    reconciliation: "matched" as const,
  };
  const sums = { currency: "EUR", betCount: 2 };
  const stored = {
    ...common,
    schemaVersion: 1,
    byCurrency: [{ ...sums, stakeSum: 1e16, payoutSum: 0, ggr: 1e16 }],
  };
  const upgraded: RoundReport = {
    ...common,
    schemaVersion: 2,
    byCurrency: [{ ...sums, stakeSum: "10000000000000000", payoutSum: "0", ggr: "10000000000000000" }],
  };
  return { stored, upgraded };
}
