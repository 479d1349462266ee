import type { ExpiredRow } from "./expired-chunk.ts";

/**
 * What retention does when a server refused a chunk's DELETE for its size (`isTransactionTooLarge`):
 * - several rows (all within the budget together): `one_at_a_time`: the server's limit is below the
 *   budget; deleting them one by one still gets them out, and a row refused alone is thrown;
 * - one row larger than the budget: `step_over`: only a limit lowered below that row refuses it, and
 *   nothing the pruner can do shrinks it; kept, named in the log, and the pass goes on past it (every
 *   pass tries it once again, so raising the limit lets it go);
 * - one row within the budget: `throw`: no row's fault (the server's limit is below any chunk, or a
 *   Group Replication member leaving its group answers 3100 too); the pass fails and is run again.
 */
export function onRefusedForSize(
  chunk: readonly ExpiredRow[],
  budgetBytes: number,
): "one_at_a_time" | "step_over" | "throw" {
  const [only, ...rest] = chunk;
  if (!only) return "throw";
  if (rest.length > 0) return "one_at_a_time";
  return only.bytes > budgetBytes ? "step_over" : "throw";
}
