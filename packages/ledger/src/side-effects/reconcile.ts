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
  // toFixed writes 1e21 and above in exponent form; no close accepted now carries one (the gateway
  // stops coefficients at 1,000,000), but a close stored before that must not fail its report.
  const text = coefficient < 1e21 ? coefficient.toFixed(SCALE_DIGITS) : BigInt(coefficient).toString();
  const [whole = "0", fraction = ""] = text.split(".");
  const scaled = BigInt(whole) * 10n ** BigInt(SCALE_DIGITS) + BigInt(fraction.padEnd(SCALE_DIGITS, "0"));
  return (stake * scaled) / 10n ** BigInt(SCALE_DIGITS);
}

/** One bet of the platform's close: its position, stake, coefficient and what that pays. */
interface PlatformBet {
  index: number;
  stake: bigint;
  coefficient: number;
  payout: bigint;
}

/**
 * Pairs the platform's close with our bets as a whole, never first-come: each platform bet is used
 * once, and as many of ours as can be are paired.
 * - a cash bet pairs with a platform bet of its exact stake and its payout;
 * - a free bet staked nothing of ours and we do not know the nominal stake the platform lists for
 *   it, so it pairs on its payout alone;
 * - a rolled-back bet may be listed as a lost bet (payout 0): of its stake if cash, of any stake if
 *   free; it may also be missing from the close, so live bets choose before rolled-back ones.
 * Cash bets choose first because they are the narrower: whatever a cash bet can take a free bet of
 * that payout could take too, never the other way round, so serving cash bets first never leaves
 * a bet unpaired that another order would have paired (exact payouts before the one milli of
 * tolerance, for the same reason). Each pass is a hash lookup per bet: a close of 100,000 bets is
 * reconciled in linear time.
 */
export function reconcileRound(
  stakes: bigint[],
  coefficients: number[],
  ours: OperatorBet[],
): Reconciliation {
  const steps = reconciling(stakes, coefficients, ours);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `reconcileRound` a slice per event-loop turn: a close of 620,000 bets takes about a second of CPU,
 * which held the side-effect thread's loop (and its jobs' lock renewals) in one piece.
 */
export async function reconcileInTurns(
  stakes: bigint[],
  coefficients: number[],
  ours: OperatorBet[],
): Promise<Reconciliation> {
  const steps = reconciling(stakes, coefficients, ours);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Bets handled between two turns of the loop: a few milliseconds of work. */
const SLICE = 20_000;

function* reconciling(
  stakes: bigint[],
  coefficients: number[],
  ours: OperatorBet[],
): Generator<void, Reconciliation> {
  let work = 0;
  const platform: PlatformBet[] = [];
  for (let index = 0; index < stakes.length; index++) {
    const stake = stakes[index] as bigint;
    const coefficient = coefficients[index] ?? 0;
    platform.push({ index, stake, coefficient, payout: expectedPayout(stake, coefficient) });
    if (++work % SLICE === 0) yield;
  }
  const taken = new Array<boolean>(platform.length).fill(false);
  const byStakeAndPayout = bucket(platform, (entry) => `${entry.stake}:${entry.payout}`);
  const byPayout = bucket(platform, (entry) => String(entry.payout));
  const take = (buckets: Map<string, PlatformBet[]>, key: string): boolean => {
    const candidates = buckets.get(key);
    while (candidates && candidates.length > 0) {
      const entry = candidates.pop() as PlatformBet;
      if (taken[entry.index]) continue;
      taken[entry.index] = true;
      return true;
    }
    return false;
  };

  const live = (bet: OperatorBet) => bet.status === "open" || bet.status === "won";
  // Live bets before rolled-back ones: both want the same lost bets, and only a live one must find one.
  const inOrder = (free: boolean) =>
    [...ours.filter(live), ...ours.filter((bet) => bet.status === "rolled_back")].filter(
      (bet) => (bet.kind === "FREE_BET") === free,
    );
  const cash = inOrder(false);
  const free = inOrder(true);
  const paired = new Set<OperatorBet>();
  // What a bet may pair with: a live one its payout, a rolled-back one a lost bet.
  const payoutOf = (bet: OperatorBet) => (live(bet) ? bet.wonAmount : 0n);
  for (const tolerance of [0n, TOLERANCE]) {
    for (const [group, keyOf] of [
      [cash, (bet: OperatorBet, payout: bigint) => [byStakeAndPayout, `${bet.amount}:${payout}`] as const],
      [free, (_bet: OperatorBet, payout: bigint) => [byPayout, String(payout)] as const],
    ] as const) {
      for (const bet of group) {
        if (++work % SLICE === 0) yield;
        if (paired.has(bet)) continue;
        const payout = payoutOf(bet);
        const payouts = tolerance === 0n ? [payout] : [payout - tolerance, payout + tolerance];
        if (payouts.some((candidate) => take(...keyOf(bet, candidate)))) paired.add(bet);
      }
    }
  }

  // Every difference is counted and summed; only the first DIFFERENCES_LISTED are listed (a close
  // of 620,000 bets we never saw made a list of 60 MB that no statement could store).
  const differences: ReconciliationDifference[] = [];
  const summary = emptySummary();
  const notFound = summary.platform_bet_not_found;
  const list = (difference: () => ReconciliationDifference) => {
    if (differences.length < DIFFERENCES_LISTED) differences.push(difference());
  };
  for (const entry of platform) {
    if (++work % SLICE === 0) yield;
    if (taken[entry.index]) continue;
    tally(notFound, entry.stake, entry.payout);
    list(() => ({
      kind: "platform_bet_not_found",
      index: entry.index,
      stake: Number(entry.stake),
      coefficient: entry.coefficient,
      expectedPayout: Number(entry.payout),
    }));
  }
  const notInClose = summary.operator_bet_not_in_close;
  for (const bet of [...cash, ...free]) {
    if (paired.has(bet) || !live(bet)) continue;
    tally(notInClose, bet.amount, bet.wonAmount);
    list(() => ({
      kind: "operator_bet_not_in_close",
      providerTxId: bet.providerTxId,
      stake: Number(bet.amount),
      payout: Number(bet.wonAmount),
    }));
  }
  const matched = notFound.count === 0 && notInClose.count === 0;
  return { status: matched ? "matched" : "mismatch", differences, summary };
}

/**
 * At most this many differences are listed with a reconciliation (the platform's first, in close
 * order, then ours): enough to see what went wrong, small enough to store and show whatever the
 * close holds. `summary` counts and sums all of them.
 */
export const DIFFERENCES_LISTED = 100;

/** Every difference of one kind, counted and summed (bigint millis; decimal text once stored). */
interface DifferenceTotals {
  count: number;
  stake: bigint;
  /** For the platform's bets, what the close says they paid; for ours, what we credited. */
  payout: bigint;
}

export interface Reconciliation {
  status: "matched" | "mismatch";
  /** The first `DIFFERENCES_LISTED` differences. */
  differences: ReconciliationDifference[];
  summary: Record<ReconciliationDifference["kind"], DifferenceTotals>;
}

/** The summary as stored and shown: millis as decimal text, exact whatever their size (JSON numbers stop at 2^53). */
export function summaryText(summary: Reconciliation["summary"]): string {
  return JSON.stringify(summary, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
}

function tally(totals: DifferenceTotals, stake: bigint, payout: bigint): void {
  totals.count += 1;
  totals.stake += stake;
  totals.payout += payout;
}

const emptySummary = (): Reconciliation["summary"] => ({
  platform_bet_not_found: { count: 0, stake: 0n, payout: 0n },
  operator_bet_not_in_close: { count: 0, stake: 0n, payout: 0n },
});

/** The platform's bets by a key, each bucket in reverse index order so `pop` takes the lowest index. */
function bucket(entries: PlatformBet[], keyOf: (entry: PlatformBet) => string): Map<string, PlatformBet[]> {
  const buckets = new Map<string, PlatformBet[]>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as PlatformBet;
    const key = keyOf(entry);
    const list = buckets.get(key);
    if (list) list.push(entry);
    else buckets.set(key, [entry]);
  }
  return buckets;
}
