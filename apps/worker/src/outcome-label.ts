import type { Outcome } from "@wallet/ledger/outcome";

/** The `result` label of an outcome. */
export function resultOf(outcome: Outcome): string {
  if (outcome.replayed) return outcome.status === 409 ? "conflict" : "replayed";
  if (outcome.status < 300) return "applied";
  return outcome.status >= 500 ? "failed" : "rejected";
}
