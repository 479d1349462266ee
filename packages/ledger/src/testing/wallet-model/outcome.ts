import type { WalletAnswer } from "./commands.ts";
import type { WalletState } from "./state.ts";

/** One step's result: the answer the wallet owes, and the wallet after it. */
export interface Outcome {
  answer: WalletAnswer;
  state: WalletState;
}

/** The largest balance the wallet keeps: 2^53 − 1 millis (`maxBalanceMillis`, contracts/src/money.ts). */
export const MAX_BALANCE = 2n ** 53n - 1n;

/** Answered with the balance as it stands (a success moved, or a 402 reports it). */
export const withBalance = (state: WalletState, status = 200): Outcome => ({
  answer: { status, balance: state.balance },
  state,
});

/** A refusal that reports no balance and changes nothing (the key's answer is stored by the caller). */
export const refused = (state: WalletState, status = 400): Outcome => ({
  answer: { status, balance: null },
  state,
});

/** A credit past 2^53 − 1 is refused (400) and moves nothing (`requireRoom`, batch/rules/booking.ts). */
export const lacksRoom = (state: WalletState, credit: bigint) => state.balance + credit > MAX_BALANCE;

/** Another currency than the player's is a 400 (`playerWallet`, batch/rules/booking.ts). */
export const refusesCurrency = (state: WalletState, currency: string | null) =>
  currency !== null && state.limits.currency !== null && currency !== state.limits.currency;
