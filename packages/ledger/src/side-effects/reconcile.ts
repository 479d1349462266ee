import type { ReconciliationDifference } from "@wallet/contracts/side-effects";

export interface OperatorBet {
  providerTxId: string;
  kind: string;
  amount: bigint;
  wonAmount: bigint;
  status: string;
}

/** Payout differences up to this many millis are rounding, not mismatches. */
const TOLERANCE = 1n;
const SCALE_DIGITS = 8;

/**
 * What a bet of `stake` pays at `coefficient`: 0 for a lost bet (coefficient 1.00 or lower, per
 * the contract), else stake × coefficient rounded down to whole millis, in exact decimal arithmetic.
 */
export function expectedPayout(stake: bigint, coefficient: number): bigint {
  if (!(coefficient > 1)) return 0n;
  const text = coefficient.toFixed(SCALE_DIGITS);
  const [whole = "0", fraction = ""] = text.split(".");
  const scaled = BigInt(whole) * 10n ** BigInt(SCALE_DIGITS) + BigInt(fraction.padEnd(SCALE_DIGITS, "0"));
  return (stake * scaled) / 10n ** BigInt(SCALE_DIGITS);
}

/**
 * Pairs each (stake, coefficient) of the platform's close with one of our bets of the same stake
 * whose payout agrees. The arrays are positional between themselves but not ordered like our
 * records, so this matches as multisets. Rolled-back bets may appear in the close as lost bets.
 */
export function reconcileRound(
  stakes: bigint[],
  coefficients: number[],
  ours: OperatorBet[],
): { status: "matched" | "mismatch"; differences: ReconciliationDifference[] } {
  const live = ours.filter((bet) => bet.status === "open" || bet.status === "won");
  const voided = ours.filter((bet) => bet.status === "rolled_back");
  const differences: ReconciliationDifference[] = [];
  stakes.forEach((stake, index) => {
    const coefficient = coefficients[index] ?? 0;
    const payout = expectedPayout(stake, coefficient);
    // A free bet stakes nothing of ours; the platform may list its nominal stake, so only the payout must agree.
    const close = (bet: OperatorBet) =>
      (bet.kind === "FREE_BET" || bet.amount === stake) && absolute(bet.wonAmount - payout) <= TOLERANCE;
    const hit = live.findIndex(close);
    if (hit >= 0) {
      live.splice(hit, 1);
      return;
    }
    const refunded = payout === 0n ? voided.findIndex((bet) => bet.amount === stake) : -1;
    if (refunded >= 0) {
      voided.splice(refunded, 1);
      return;
    }
    differences.push({
      kind: "platform_bet_not_found",
      index,
      stake: Number(stake),
      coefficient,
      expectedPayout: Number(payout),
    });
  });
  for (const bet of live) {
    differences.push({
      kind: "operator_bet_not_in_close",
      providerTxId: bet.providerTxId,
      stake: Number(bet.amount),
      payout: Number(bet.wonAmount),
    });
  }
  return { status: differences.length === 0 ? "matched" : "mismatch", differences };
}

function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}
