import { insertRows, type Statement } from "./upsert.ts";

/**
 * The batch's new `(topic, eventId)` receipts, written in the effects' own transaction. A concurrent
 * delivery of the same event makes the receipt INSERT wait for its commit and fail on the duplicate
 * key; the caller reruns the transaction, whose read then finds that receipt and skips the event.
 * The outbox row is not touched here: the relay marks it applied once all its receipts exist
 * (`markApplied`), one update per close instead of one per topic.
 */
export function receiptWrites(topic: string, eventIds: string[]): Statement[] {
  return insertRows(
    "side_effect_receipts",
    ["topic", "event_id"],
    eventIds.map((eventId) => [topic, eventId]),
  );
}
