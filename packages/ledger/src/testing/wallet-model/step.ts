import type { WalletCommand } from "./commands.ts";
import { creditWin, placeBet, placeFreeBet, refundBet } from "./money-rules.ts";
import { lacksRoom, type Outcome, refused, refusesCurrency, withBalance } from "./outcome.ts";
import { getEntry, setEntry } from "./persistent-map.ts";
import type { WalletState } from "./state.ts";

/** The idempotency key of an adjustment (`adjustmentKey`, verbs/adjust-balance.ts). */
export const adjustmentKey = (reference: string) => `operator-adjustment:${reference}`;

/** The largest grant the operator API takes (`freeBetCount`, contracts/src/limits). */
const MAX_FREE_BETS_GRANTED = 1_000;

/**
 * One request against one player's wallet: the answer the contract owes and the wallet after it. Pure:
 * the state given is never changed.
 */
export function stepWallet(state: WalletState, command: WalletCommand): Outcome {
  switch (command.kind) {
    case "malformed":
      return refused(state);
    case "balance":
      return refusesCurrency(state, command.currency) ? refused(state) : withBalance(state);
    case "auth":
      return authenticate(state, command);
    case "grant-free-bets":
      if (!Number.isInteger(command.count) || command.count < 1 || command.count > MAX_FREE_BETS_GRANTED)
        return refused(state);
      return {
        answer: { status: 201, balance: null },
        state: { ...state, freeBets: state.freeBets + command.count },
      };
    case "mint-token":
    case "revoke-token":
      return recordToken(state, command.token, command.kind === "mint-token" ? "live" : "revoked");
    case "adjust":
      // A zero amount fails its schema (`adjustmentRequest`): never stored.
      if (command.amount === 0n) return refused(state);
      return idempotent(state, adjustmentKey(command.reference), command.body, () =>
        adjust(state, command.amount),
      );
    case "FREE_BET":
      // `amount` must be 0 by the FREE_BET schema (`zeroMillis`, contracts/src/wallet-request.ts): never stored.
      if (command.amount !== 0n) return refused(state);
      return idempotent(state, command.key, command.body, () => money(state, command));
    case "WIN":
      // WIN requires `withdraw_provider_tx_id` in its schema; FREE_BET_WIN does not.
      if (command.betKey === null) return refused(state);
      return idempotent(state, command.key, command.body, () => money(state, command));
    case "BET":
    case "FREE_BET_WIN":
    case "ROLL_BACK":
      return idempotent(state, command.key, command.body, () => money(state, command));
  }
}

function money(state: WalletState, command: Extract<WalletCommand, { key: string }>): Outcome {
  if (refusesCurrency(state, command.currency)) return refused(state);
  switch (command.kind) {
    case "BET":
      return placeBet(state, command);
    case "FREE_BET":
      return placeFreeBet(state, command);
    case "WIN":
    case "FREE_BET_WIN":
      return creditWin(state, command);
    case "ROLL_BACK":
      return refundBet(state, command);
  }
}

/**
 * Same key, same bytes: the stored answer again, nothing moves; same key, other bytes: 409, nothing
 * moves; a new key: decided, and the answer stored, refusals included (batch/rules/decide.ts).
 */
function idempotent(state: WalletState, key: string, body: string, decide: () => Outcome): Outcome {
  const earlier = getEntry(state.answers, key);
  if (earlier) {
    if (earlier.body !== body) return refused(state, 409);
    // An adjustment is answered 201 when applied and 200 when replayed (operator-api adjust-balance.ts).
    return {
      answer: { status: earlier.status === 201 ? 200 : earlier.status, balance: earlier.balance },
      state,
    };
  }
  const outcome = decide();
  const stored = { body, status: outcome.answer.status, balance: outcome.answer.balance };
  return {
    answer: outcome.answer,
    state: { ...outcome.state, answers: setEntry(outcome.state.answers, key, stored) },
  };
}

/** A cashier credit (400 past 2^53 − 1) or debit (402 beyond the balance, reporting it): verbs/adjust-balance.ts. */
function adjust(state: WalletState, amount: bigint): Outcome {
  if (amount > 0n && lacksRoom(state, amount)) return refused(state);
  if (amount < 0n && -amount > state.balance) return withBalance(state, 402);
  return withBalance({ ...state, balance: state.balance + amount }, 201);
}

/** `/auth`: a token the history revoked is a 404; one it never named is taken as live (verbs/authenticate.ts). */
function authenticate(state: WalletState, command: Extract<WalletCommand, { kind: "auth" }>): Outcome {
  if (command.token !== null && getEntry(state.tokens, command.token) === "revoked")
    return refused(state, 404);
  return refusesCurrency(state, command.currency) ? refused(state) : withBalance(state);
}

function recordToken(state: WalletState, token: string | null, status: "live" | "revoked"): Outcome {
  const tokens = token === null ? state.tokens : setEntry(state.tokens, token, status);
  return { answer: { status: status === "live" ? 201 : 200, balance: null }, state: { ...state, tokens } };
}
