/**
 * Callbacks the contract does not forbid but no healthy platform sends. Each is decided on
 * (docs/contract-decisions.md): the money follows what the platform did, the line is marked in the
 * journal, counted (`wallet_anomalies_total{kind}`) and shown on its round (`GET /v1/rounds/:id`).
 * - win_above_maxwin: a WIN or FREE_BET_WIN larger than the player's `maxwin` (credited: the
 *   platform settled the round; refusing would take the player's win and the platform never resends);
 * - second_win: a WIN against a bet that already has one (credited: a bet may cash out in parts);
 * - rollback_amount_differs: a ROLL_BACK whose amount is not its bet's (the bet's own amount is
 *   refunded: what was taken is what goes back);
 * - rollback_round_differs: a ROLL_BACK whose `action_id` is not its bet's round (refunded to the
 *   bet's round: the bet names it);
 * - after_close: a BET, WIN, FREE_BET_WIN or ROLL_BACK booked into a round already closed (applied:
 *   refused, a win would be lost and a bet the close lists would stand unmatched; the line owes the
 *   round's effects again through its own late event, and the round is re-reconciled and re-reported).
 */
export const anomalyKinds = [
  "win_above_maxwin",
  "second_win",
  "rollback_amount_differs",
  "rollback_round_differs",
  "after_close",
] as const;
export type AnomalyKind = (typeof anomalyKinds)[number];

/** The journal column's value: the kinds, comma-separated, or null for none. */
export function anomalyMark(kinds: AnomalyKind[]): string | null {
  return kinds.length > 0 ? kinds.join(",") : null;
}
