import type { WalletCommand } from "./commands.ts";
import { lacksRoom, type Outcome, refused, withBalance } from "./outcome.ts";
import { getEntry, setEntry } from "./persistent-map.ts";
import type { ModelBet, WalletState } from "./state.ts";

// The callbacks that move money or free bets, each in the order the ledger checks
// (packages/ledger/src/batch/rules/*.ts, verbs/place-free-bet.ts). The caller has already handled the
// idempotency key and the currency.

type Keyed<K extends WalletCommand["kind"]> = Extract<WalletCommand, { kind: K }>;

const stakedIn = (state: WalletState, round: string) => getEntry(state.staked, round) ?? 0n;

/**
 * What BET and FREE_BET share: a late bet after its tombstone is 200 and moves nothing; an id already
 * recorded as a bet is a 409 (bet.ts, place-free-bet.ts). Undefined when the bet is new.
 */
function earlierBet(state: WalletState, key: string): Outcome | undefined {
  const earlier = getEntry(state.bets, key);
  if (!earlier) return undefined;
  return earlier.status === "tombstone" ? withBalance(state) : refused(state, 409);
}

/** BET: more than 0, at least minbet, the round's total stake within maxbet, then the funds (402). */
export function placeBet(state: WalletState, command: Keyed<"BET">): Outcome {
  const earlier = earlierBet(state, command.key);
  if (earlier) return earlier;
  const { amount, round } = command;
  const { minbet, maxbet } = state.limits;
  if (amount <= 0n || (minbet !== null && amount < minbet)) return refused(state);
  if (stakedIn(state, round) + amount > maxbet) return refused(state);
  if (amount > state.balance) return withBalance(state, 402);
  const bet: ModelBet = { kind: "BET", amount, round, status: "open", rollbackKey: null };
  return withBalance({
    ...state,
    balance: state.balance - amount,
    bets: setEntry(state.bets, command.key, bet),
    staked: setEntry(state.staked, round, stakedIn(state, round) + amount),
  });
}

/** FREE_BET: uses one granted free bet (402 with none left, reporting the balance); cash never moves. */
export function placeFreeBet(state: WalletState, command: Keyed<"FREE_BET">): Outcome {
  const earlier = earlierBet(state, command.key);
  if (earlier) return earlier;
  if (state.freeBets === 0) return withBalance(state, 402);
  const bet: ModelBet = {
    kind: "FREE_BET",
    amount: 0n,
    round: command.round,
    status: "open",
    rollbackKey: null,
  };
  const inRound = getEntry(state.roundFreeBets, command.round) ?? [];
  return withBalance({
    ...state,
    freeBets: state.freeBets - 1,
    bets: setEntry(state.bets, command.key, bet),
    roundFreeBets: setEntry(state.roundFreeBets, command.round, [...inRound, command.key]),
  });
}

/**
 * WIN and FREE_BET_WIN: the bet must be this player's, of this round, of the matching kind (BET for
 * WIN, FREE_BET for FREE_BET_WIN), and not rolled back (400). A second win is booked; a win of 0 settles
 * the bet and moves nothing (batch/rules/win.ts).
 */
export function creditWin(state: WalletState, command: Keyed<"WIN" | "FREE_BET_WIN">): Outcome {
  const betKey = command.betKey ?? roundFreeBet(state, command.round);
  const bet = betKey === undefined ? undefined : getEntry(state.bets, betKey);
  if (betKey === undefined || !bet || bet.status === "tombstone" || bet.status === "rolled_back")
    return refused(state);
  if (bet.round !== command.round || bet.kind !== (command.kind === "WIN" ? "BET" : "FREE_BET"))
    return refused(state);
  if (lacksRoom(state, command.amount)) return refused(state);
  return withBalance({
    ...state,
    balance: state.balance + command.amount,
    bets: setEntry(state.bets, betKey, { ...bet, status: "won" }),
  });
}

/** A FREE_BET_WIN naming no bet settles the player's FREE_BET in the round, an unsettled one first (win.ts). */
function roundFreeBet(state: WalletState, round: string): string | undefined {
  const live = (getEntry(state.roundFreeBets, round) ?? []).filter((key) => {
    const status = getEntry(state.bets, key)?.status;
    return status === "open" || status === "won";
  });
  return live.find((key) => getEntry(state.bets, key)?.status === "open") ?? live[0];
}

/**
 * ROLL_BACK: refunds what the bet took, once; a FREE_BET gets its grant back instead. A bet never seen
 * is tombstoned (200, no credit); a later rollback of a refunded or tombstoned bet gets the first
 * rollback's answer; a won bet is a 400 (batch/rules/rollback.ts).
 */
export function refundBet(state: WalletState, command: Keyed<"ROLL_BACK">): Outcome {
  const bet = getEntry(state.bets, command.betKey);
  if (!bet) {
    const tombstone: ModelBet = {
      kind: "BET",
      amount: command.amount,
      round: command.round,
      status: "tombstone",
      rollbackKey: command.key,
    };
    return withBalance({ ...state, bets: setEntry(state.bets, command.betKey, tombstone) });
  }
  if (bet.status === "rolled_back" || bet.status === "tombstone") {
    const first = bet.rollbackKey === null ? undefined : getEntry(state.answers, bet.rollbackKey);
    return {
      answer: first ? { status: first.status, balance: first.balance } : withBalance(state).answer,
      state,
    };
  }
  if (bet.status === "won") return refused(state);
  if (lacksRoom(state, bet.amount)) return refused(state);
  const staked =
    bet.kind === "BET"
      ? setEntry(state.staked, bet.round, stakedIn(state, bet.round) - bet.amount)
      : state.staked;
  return withBalance({
    ...state,
    balance: state.balance + bet.amount,
    freeBets: state.freeBets + (bet.kind === "FREE_BET" ? 1 : 0),
    staked,
    bets: setEntry(state.bets, command.betKey, { ...bet, status: "rolled_back", rollbackKey: command.key }),
  });
}
