import { roundReport, sideEffectTopics } from "@wallet/contracts/side-effects";
import { z } from "zod";
import { anyJson, millisField, timestampField } from "./shapes.ts";

/** An effect's progress: dead failed SIDE_EFFECT_MAX_ATTEMPTS times on its own. */
const effectState = z.enum(["pending", "published", "applied", "dead"]);
const anomaly = z.object({
  kind: z.string(),
  provider_tx_id: z.string().nullable(),
  amount: millisField,
  anomalies: z.array(z.string()),
});
/** What a stored JSON column holds, or `{unreadable}` with its first 1,000 characters when it cannot be read. */
const storedJson = (description: string) => anyJson.meta({ description });

/** `GET /v1/rounds/{round_id}`'s answer, as `roundStatus` (packages/ledger) builds it. */
export const roundAnswer = z.object({
  round_id: z.string(),
  operator_id: z.int(),
  user_ids: z.array(z.string()).meta({ description: "the round's players (user_id), open or closed" }),
  game: z.string().optional(),
  status: z.enum(["open", "closed"]),
  closed_at: timestampField.nullable(),
  close: z
    .object({
      provider_tx_id: z.string(),
      bet_count: z.int(),
      stakes: storedJson("the close's crashGameBets, as stored"),
      cash_out_coefficients: storedJson("the close's crashGameCashOutCoefficients, as stored"),
    })
    .nullable(),
  side_effects: z
    .record(z.enum(sideEffectTopics), effectState)
    .nullable()
    .meta({ description: "per topic, the least advanced of the close's event and each late line's" }),
  side_effect_failures: z.array(
    z.object({
      event_id: z.string(),
      topic: z.string(),
      attempts: z.int(),
      last_error: z.string(),
      last_failed_at: timestampField,
      dead_at: timestampField.nullable(),
    }),
  ),
  reconciliation: z
    .object({
      status: z.string(),
      revision: z.int(),
      differences: storedJson("the first 100 differences"),
      summary: storedJson("every difference counted and summed per kind, millis as decimal text").nullable(),
      anomalies: z.array(anomaly),
    })
    .nullable(),
  report: roundReport
    .nullable()
    .meta({ description: "the latest round report (money as decimal text), as sent to reporting" }),
  anomalies: z.array(anomaly).meta({ description: "the round's unusual journal lines" }),
});
