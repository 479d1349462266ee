import type { WalletAnswer, WalletCommand } from "@wallet/ledger/testing/wallet-model/commands";
import type { WalletState } from "@wallet/ledger/testing/wallet-model/state";
import { stepWallet } from "@wallet/ledger/testing/wallet-model/step";
import { isAnswered, type Operation } from "../history/operation.ts";

/**
 * The campaign's history run through the ledger's wallet model (`@wallet/ledger/testing/wallet-model`,
 * the model its model-based test holds the real ledger to): an operation as the command the model
 * reads, and whether the model's answer is the one the sender got.
 */

/**
 * Statuses the gateway or the HTTP server answers before the ledger sees the request (401 signature,
 * 408 slow request, 413 too large, 415 compressed, 431 headers): nothing is stored and nothing moves.
 */
const REFUSED_BEFORE_LEDGER = new Set([401, 408, 413, 415, 431]);

/**
 * Kinds whose success code is the operator API's, not the model's: any 2xx is their success. An
 * adjustment is one of them: 201 when applied, 200 when replayed, and one operation of the history
 * may be both, its first send applied and its reply lost, its resend answered 200 "replayed" with
 * the balance the first send made. Its balance is still checked.
 */
const ANY_SUCCESS = new Set(["grant-free-bets", "mint-token", "revoke-token", "adjust"]);

export interface OperationStep {
  state: WalletState;
  answer: WalletAnswer;
  /** The model gave the answer the sender got (always true for an unanswered operation). */
  matches: boolean;
}

/** An operation read once for a search that steps it many times. */
export interface PreparedOperation {
  operation: Operation;
  command: WalletCommand;
  /**
   * Whether its stored answer can ever be read again: another operation of the history uses its key,
   * or it is a rollback whose bet another rollback names. When not, the answer is not kept, so that
   * states that differ only by it are one state.
   */
  keepsAnswer: boolean;
}

export function prepareOperations(operations: readonly Operation[]): PreparedOperation[] {
  const count = (values: Array<string | null>) => {
    const counts = new Map<string, number>();
    for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
    return counts;
  };
  const keys = count(operations.map((operation) => operation.key));
  const rolledBack = count(
    operations.map((operation) => (operation.kind === "ROLL_BACK" ? operation.betKey : null)),
  );
  // Bodies are compared for equality only: a short id per distinct body keeps the model's hashing cheap.
  const bodies = new Map<string, string>();
  const intern = (body: string) =>
    bodies.get(body) ?? bodies.set(body, `body-${bodies.size}`).get(body) ?? body;
  return operations.map((operation) => ({
    operation,
    command: withInternedBody(commandOf(operation), intern),
    keepsAnswer:
      (keys.get(operation.key ?? "") ?? 0) > 1 ||
      (operation.kind === "ROLL_BACK" && (rolledBack.get(operation.betKey ?? "") ?? 0) > 1),
  }));
}

function withInternedBody(command: WalletCommand, intern: (body: string) => string): WalletCommand {
  return "body" in command ? { ...command, body: intern(command.body) } : command;
}

export function stepOperation(state: WalletState, prepared: PreparedOperation): OperationStep {
  const { operation, command, keepsAnswer } = prepared;
  if (REFUSED_BEFORE_LEDGER.has(operation.status)) {
    return { state, answer: { status: operation.status, balance: null }, matches: true };
  }
  const { answer, state: next } = stepWallet(state, command);
  const kept = keepsAnswer ? next : { ...next, answers: state.answers };
  return { state: kept, answer, matches: !isAnswered(operation) || answerMatches(operation, answer) };
}

/** Same status (any 2xx for the kinds the model has no code for), and the same balance when both report one. */
export function answerMatches(operation: Operation, answer: WalletAnswer): boolean {
  const success = (status: number) => status >= 200 && status < 300;
  const sameStatus =
    answer.status === operation.status ||
    (ANY_SUCCESS.has(operation.kind) && success(answer.status) && success(operation.status));
  if (!sameStatus) return false;
  if (operation.balance === null || answer.balance === null) return true;
  return Number.isSafeInteger(operation.balance) && BigInt(operation.balance) === answer.balance;
}

const MALFORMED: WalletCommand = { kind: "malformed" };

/** The model's reading of an operation. What the schema would refuse becomes `malformed` (400, not stored). */
export function commandOf(operation: Operation): WalletCommand {
  const body = parsedBody(operation.request);
  const currency = typeof body?.currency === "string" ? body.currency : null;
  switch (operation.kind) {
    case "balance":
      return { kind: "balance", currency };
    case "auth":
      return { kind: "auth", token: stringField(body, "user_token"), currency };
    case "grant-free-bets":
      return { kind: "grant-free-bets", count: operation.count ?? Number(body?.count) };
    case "mint-token":
      return { kind: "mint-token", token: stringField(parsedBody(operation.reply), "user_token") };
    case "revoke-token":
      return { kind: "revoke-token", token: stringField(body, "user_token") ?? operation.key };
    case "adjust": {
      const amount = millis(operation.amount, true);
      if (operation.key === null || amount === null) return MALFORMED;
      // The ledger hashes these fields, not the bytes sent (operator-api routes/adjust-balance.ts).
      const identity = JSON.stringify({ amount: operation.amount, reason: body?.reason ?? null });
      return { kind: "adjust", reference: operation.key, amount, body: identity };
    }
    case "BET":
    case "FREE_BET":
    case "WIN":
    case "FREE_BET_WIN":
    case "ROLL_BACK":
      return moneyCommand(operation, currency);
    case "CLOSE_ROUND":
    case "manual-close":
      throw new Error(`operation ${operation.id}: a ${operation.kind} names no player's wallet`);
  }
}

function moneyCommand(operation: Operation, currency: string | null): WalletCommand {
  const amount = millis(operation.amount, false);
  const { key, roundId: round, betKey, request: body } = operation;
  if (key === null || round === null || amount === null) return MALFORMED;
  const fields = { key, body, round, amount, currency };
  switch (operation.kind) {
    case "BET":
    case "FREE_BET":
      return { kind: operation.kind, ...fields };
    case "WIN":
    case "FREE_BET_WIN":
      return { kind: operation.kind, betKey, ...fields };
    default:
      return betKey === null ? MALFORMED : { kind: "ROLL_BACK", betKey, ...fields };
  }
}

/** An amount the contract takes: an integer within 2^53 − 1 (signed only for adjustments), not −0. */
function millis(amount: number | null, signed: boolean): bigint | null {
  if (amount === null || !Number.isSafeInteger(amount) || Object.is(amount, -0)) return null;
  if (!signed && amount < 0) return null;
  return BigInt(amount);
}

function parsedBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function stringField(body: Record<string, unknown> | undefined, name: string): string | null {
  const value = body?.[name];
  return typeof value === "string" ? value : null;
}
