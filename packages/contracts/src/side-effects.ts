import { z } from "zod";

/** The four effects every accepted CLOSE_ROUND owes, one outbox row each. */
export const sideEffectTopics = ["loyalty", "tournaments", "reporting", "rg"] as const;
export type SideEffectTopic = (typeof sideEffectTopics)[number];

/**
 * Integer millis as decimal text: the ledger's sums are bigint, and JSON numbers stop at 2^53. Not
 * pattern-checked: the relay writes it from bigints and `BigInt()` refuses anything else; a regex per
 * field cost the consumers more CPU than the reads the summary saves (docs/performance.md).
 */
const millisText = z.string();

/** A closed round as our records saw it when its effects were published (`CloseRoundEvent.round`). */
export const roundSummary = z.object({
  game: z.string(),
  /** When the CLOSE_ROUND was recorded, ISO 8601 UTC (from a Date, read back with `new Date`). */
  closedAt: z.string(),
  /**
   * The close's arrays, positional: shipped by earlier versions only. They can hold 620,000 bets, so
   * the relay no longer ships them (nor `bets`) four times through Redis; the reporting consumer
   * reads them itself, and ignores these.
   */
  stakes: z.array(millisText).optional(),
  cashOutCoefficients: z.array(z.number()).optional(),
  /** Per (player, currency): real money staked net of rollbacks, wins credited, bets not rolled back. */
  players: z.array(
    z.object({
      playerId: z.number().int(),
      currency: z.string(),
      staked: millisText,
      won: millisText,
      bets: z.number().int(),
    }),
  ),
  /** Shipped by earlier versions only (reporting read them here): our bets of the round, tombstones excluded. */
  bets: z
    .array(
      z.object({
        providerTxId: z.string(),
        kind: z.string(),
        amount: millisText,
        wonAmount: millisText,
        status: z.string(),
      }),
    )
    .optional(),
  /**
   * The round's money lines booked after its close (journal lines marked `after_close`), in the order
   * they were booked. The close's own effects leave them out; each is applied by its own late event.
   */
  late: z
    .array(
      z.object({
        playerId: z.number().int(),
        currency: z.string(),
        kind: z.string(),
        /** The journal line's signed amount: a BET negative, a WIN or ROLL_BACK positive. */
        amount: millisText,
        providerTxId: z.string(),
        /** The line's own `operator_tx_id`: which late event it is (absent from earlier versions). */
        operatorTxId: z.string().optional(),
        /** The bet the line belongs to (a BET's own id; a WIN's or ROLL_BACK's bet). */
        betProviderTxId: z.string(),
        /** Whether that bet still stands (open or won); absent from earlier versions, which shipped `bets`. */
        betLive: z.boolean().optional(),
      }),
    )
    .optional(),
});
export type RoundSummary = z.infer<typeof roundSummary>;

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
  /** The close's row id: in events written before CLOSE_ROUND was group-committed; the consumers find the close by operator and round. */
  closeId: z.number().int().positive().optional(),
  providerTxId: z.string().min(1),
  /** W3C trace context of the CLOSE_ROUND that owed the effect (absent when not tracing). */
  traceparent: z.string().optional(),
  /**
   * What the round did, read once by the relay and shipped with each of the four effects, so the
   * consumers do not read the same close, sums and bets four times. Absent in the outbox itself and
   * in jobs published before it existed: the consumer reads it then.
   */
  round: roundSummary.optional(),
  /**
   * Set on a late event (`lateEventId`): one money line booked into the round after its close, as the
   * change it makes to that player's figures. Loyalty, tournaments and RG apply just this change;
   * reporting re-reconciles and re-reports the whole round.
   */
  late: z
    .object({
      /** The line's `operator_tx_id`: names the late event and its revised report. */
      operatorTxId: z.string(),
      playerId: z.number().int(),
      currency: z.string(),
      staked: millisText,
      won: millisText,
    })
    .optional(),
});
export type CloseRoundEvent = z.infer<typeof closeRoundEvent>;

/**
 * A side-effect job: the events one relay turn claimed for one topic (any number of rounds, applied
 * in one transaction). A job of the earlier shape, one event as the whole job, is read as a batch of one.
 * When it can go: 7 days after the last worker from before batched relays (9d762ce, 2026-11-23)
 * stopped. A live job is applied or failed within its backoff (10 attempts, about 9 minutes), but a
 * failed one is kept a week (`sideEffectJobOptions.removeOnFail`) and may be retried until then.
 */
export const sideEffectJob = z.union([
  z.object({ events: z.array(closeRoundEvent).min(1) }),
  closeRoundEvent.transform((event) => ({ events: [event] })),
]);
export type SideEffectJob = z.infer<typeof sideEffectJob>;

export function closeRoundEventId(tenantId: number, roundId: string): string {
  return `close-round:${tenantId}:${roundId}`;
}

/**
 * A money line booked into a closed round owes the round's effects again, for that line alone:
 * `late:<operatorId>:<roundId>:<operator_tx_id of the line>` (at most 187 characters).
 */
export function lateEventId(tenantId: number, roundId: string, operatorTxId: string): string {
  return `late:${tenantId}:${roundId}:${operatorTxId}`;
}

/**
 * Money in a report is integer millis as decimal text ("-1500"): a round's sums have no bound a JSON
 * number keeps exactly (two stakes of 5e15 millis sum past 2^53 − 1, the largest integer most JSON
 * readers parse exactly; version 1 published numbers and broke its own schema there).
 */
const reportMillis = z
  .string()
  .regex(/^-?(0|[1-9][0-9]*)$/, "must be integer millis as decimal text")
  .describe("Integer millis (1/1000 of the currency unit) as decimal text, exact at any size.");

/**
 * A round report, one per (operator, round), published as the data of a job on the `reporting`
 * queue. Delivery is at least once: consumers deduplicate on `eventId`
 * (`round-report:<operatorId>:<roundId>`), which is also the job id.
 */
export const roundReport = z.object({
  eventId: z
    .string()
    .describe(
      "round-report:<operatorId>:<roundId> (a revision: …:late:<id>); also the job id. Deduplicate on it.",
    ),
  schemaVersion: z
    .literal(2)
    .describe(
      "Changes only with an incompatible change of this shape. 2: money as decimal text (1 had JSON numbers).",
    ),
  operatorId: z.number().int().describe("The operator (tenant) the round was played at."),
  roundId: z.string().describe("The platform's round id (CLOSE_ROUND action_id)."),
  game: z.string(),
  closedAt: z.string().describe("When the CLOSE_ROUND was recorded, ISO 8601 UTC."),
  betCount: z
    .number()
    .int()
    .describe("Bets we recorded for the round (real and free, rolled-back excluded)."),
  byCurrency: z.array(
    z.object({
      currency: z.string().describe("ISO 4217 code."),
      betCount: z.number().int(),
      stakeSum: reportMillis.describe(
        "Real money staked, net of rollbacks, in integer millis (1/1000 of the unit) as decimal text.",
      ),
      payoutSum: reportMillis.describe("WIN and FREE_BET_WIN credited, in integer millis as decimal text."),
      ggr: reportMillis.describe(
        "Gross gaming revenue: stakeSum − payoutSum, in integer millis as decimal text (negative when the round paid out more).",
      ),
    }),
  ),
  reconciliation: z
    .enum(["matched", "mismatch"])
    .describe("Whether the platform's CLOSE_ROUND arrays agreed with our own bets and wins of the round."),
  revision: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "1 for the report made at the close; 1 + n once n money lines were booked into the round after its close " +
        "(each re-reports the round under its own eventId). The highest revision of a round supersedes the others. Absent means 1.",
    ),
});
export type RoundReport = z.infer<typeof roundReport>;

/** A version 1 sum: any integer JSON number (past 2^53 it was already rounded when it was written). */
const v1Millis = z.number().refine(Number.isInteger, "must be an integer");

/** A report as version 1 wrote it (money as JSON numbers): stored rows and queued jobs from before version 2. */
const roundReportV1 = roundReport.extend({
  schemaVersion: z.literal(1),
  byCurrency: z.array(
    z.object({
      currency: z.string(),
      betCount: z.number().int(),
      stakeSum: v1Millis,
      payoutSum: v1Millis,
      ggr: v1Millis,
    }),
  ),
});

/**
 * Any report the wallet stored or queued, as the current version: a version 1 report's sums become
 * decimal text (the republish and export tools read old rows and jobs with it). Throws (a ZodError)
 * on anything else: those tools skip and count such a record, they do not stop on it.
 */
export function readRoundReport(value: unknown): RoundReport {
  const current = roundReport.safeParse(value);
  if (current.success) return current.data;
  const old = roundReportV1.safeParse(value);
  if (!old.success) throw current.error;
  const text = (millis: number) => BigInt(millis).toString();
  return {
    ...old.data,
    schemaVersion: 2,
    byCurrency: old.data.byCurrency.map((sums) => ({
      ...sums,
      stakeSum: text(sums.stakeSum),
      payoutSum: text(sums.payoutSum),
      ggr: text(sums.ggr),
    })),
  };
}

/** `round-report:<operatorId>:<roundId>`, and for a report revised by a late line `…:late:<operator_tx_id>` (at most 200 characters). */
export function roundReportEventId(tenantId: number, roundId: string, lateOperatorTxId?: string): string {
  const eventId = `round-report:${tenantId}:${roundId}`;
  return lateOperatorTxId ? `${eventId}:late:${lateOperatorTxId}` : eventId;
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
