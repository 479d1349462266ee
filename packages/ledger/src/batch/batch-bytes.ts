/**
 * A group-committed batch's size in bytes, besides its calls (`maxBatchCalls`). Its writes go to the
 * server as one packet (`writes.ts`), so the sum of what its calls write must stay under the smallest
 * `max_allowed_packet` (MariaDB's 16 MiB; past it the connection is reset and every call of the
 * batch is a 503, and the same batch can form again), and its rows under TiDB's transaction limit.
 * 1,024 closes of 64 KiB read whole were a 488 MiB packet: the group commit now also cuts a batch
 * where its calls' weights (`callBatchBytes`) pass `maxBatchBytes` (always at least one call).
 */
export const maxBatchBytes = 4 * 1024 * 1024;

/**
 * How many times a byte of a call's body can appear in its batch's statements at most. A value a
 * body brings (an id, the game, a close's arrays) is written into a few columns and JSON texts (a
 * BET's provider_tx_id: its bet, its journal line twice, its stored answer's key and body, a late
 * line's event: six), each copy at most twice its bytes in the body (a `'` or `"` escaped in SQL, a
 * JSON string escaped again; a control character, six bytes `\u0001` in the body, is seven at most).
 * A close's arrays are stored once, at most 3.4 times their bytes (`1e15,` as `1000000000000000,`).
 */
export const bodyByteCopies = 16;

/**
 * What a call writes that its body did not bring, at most: numbers, times, its operator_tx_id, the
 * SQL between values, and what it copies from rows it read (a ROLL_BACK's journal line and late
 * event name its bet's round and game, up to 128 characters each, JSON-escaped: about 5 KiB).
 */
export const callOverheadBytes = 8 * 1024;

/**
 * A call's weight in its batch: an upper bound of the bytes its rows add to the batch's statements,
 * from its body's size alone (counted once, when it is handed to the group commit: no parsing, no
 * serialising). A 300-byte BET weighs about 13 KiB, so 4 MiB takes over 300 of them (the default
 * LEDGER_MAX_BATCH is 256); a close of 64 KiB read whole weighs about 1 MiB, so three go together.
 */
export function callBatchBytes(bodyBytes: number): number {
  return callOverheadBytes + bodyByteCopies * bodyBytes;
}
