import { z } from "zod";

/** The four effects every accepted CLOSE_ROUND owes, one outbox row each. */
export const sideEffectTopics = ["loyalty", "tournaments", "reporting", "rg"] as const;
export type SideEffectTopic = (typeof sideEffectTopics)[number];

/**
 * The outbox payload, published to `side-effects-<topic>`. `eventId` is
 * `close-round:<operatorId>:<roundId>`, the same for the four topics: the consumers deduplicate
 * on `(topic, eventId)`.
 */
export const closeRoundEvent = z.object({
  eventId: z.string().min(1),
  tenantId: z.number().int().positive(),
  roundId: z.string().min(1),
  game: z.string().min(1),
  closeId: z.number().int().positive(),
  providerTxId: z.string().min(1),
  /** W3C trace context of the CLOSE_ROUND that owed the effect (absent when not tracing). */
  traceparent: z.string().optional(),
});
export type CloseRoundEvent = z.infer<typeof closeRoundEvent>;

export function closeRoundEventId(tenantId: number, roundId: string): string {
  return `close-round:${tenantId}:${roundId}`;
}

/** Money in reports is integer millis as a JSON number; per-round sums stay far below 2^53. */
const reportMillis = z.number().int();

/**
 * A round report, one per (operator, round), published as the data of a job on the `reporting`
 * queue. Delivery is at least once: consumers deduplicate on `eventId`
 * (`round-report:<operatorId>:<roundId>`), which is also the job id.
 */
export const roundReport = z.object({
  eventId: z.string(),
  schemaVersion: z.literal(1),
  operatorId: z.number().int(),
  roundId: z.string(),
  game: z.string(),
  closedAt: z.string(),
  /** Bets we recorded for the round (real and free, rolled-back excluded). */
  betCount: z.number().int(),
  byCurrency: z.array(
    z.object({
      currency: z.string(),
      betCount: z.number().int(),
      stakeSum: reportMillis,
      payoutSum: reportMillis,
      /** Gross gaming revenue: stakeSum − payoutSum. */
      ggr: reportMillis,
    }),
  ),
  reconciliation: z.enum(["matched", "mismatch"]),
});
export type RoundReport = z.infer<typeof roundReport>;

export function roundReportEventId(tenantId: number, roundId: string): string {
  return `round-report:${tenantId}:${roundId}`;
}

/** A difference between the platform's CLOSE_ROUND arrays and our own records of the round. */
export type ReconciliationDifference =
  | {
      kind: "platform_bet_not_found";
      index: number;
      stake: number;
      coefficient: number;
      expectedPayout: number;
    }
  | { kind: "operator_bet_not_in_close"; providerTxId: string; stake: number; payout: number };
