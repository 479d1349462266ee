import { once, placeholders } from "../batch/sql-text.ts";
import { insertRows, type Statement } from "./upsert.ts";

/**
 * The batch's new `(topic, eventId)` receipts and the outbox rows they mark applied, written in the
 * effects' own transaction. A concurrent delivery of the same event makes the receipt INSERT wait
 * for its commit and fail on the duplicate key; the caller reruns the transaction, whose read then
 * finds that receipt and skips the event.
 */
export function receiptWrites(topic: string, eventIds: string[]): Statement[] {
  return [
    ...insertRows(
      "side_effect_receipts",
      ["topic", "event_id"],
      eventIds.map((eventId) => [topic, eventId]),
    ),
    {
      sql: once(
        "mark-applied",
        eventIds.length,
        (count) =>
          `UPDATE outbox SET applied_at = CURRENT_TIMESTAMP(3) WHERE topic = ? AND event_id IN (${placeholders(count)})`,
      ),
      values: [topic, ...eventIds],
    },
  ];
}
