import { WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { describeIssues } from "@wallet/contracts/validation";
import type { z } from "zod";
import type { AnomalyKind } from "./anomalies.ts";

/** What a verb answers: the HTTP status (= envelope code) and the exact body bytes to send. */
export interface Outcome {
  status: number;
  body: string;
  /** True when the body is a stored answer to an earlier request with the same key. */
  replayed: boolean;
  /** What was unusual about the callback (`anomalies.ts`), for the worker's metric; never replayed. */
  anomalies?: AnomalyKind[];
}

export function success(data: Record<string, unknown>): Outcome {
  return { status: 200, body: stringifyJson({ code: 200, message: "OK", data }), replayed: false };
}

export function failure(error: WalletError): Outcome {
  const status = error.status;
  return {
    status,
    body: stringifyJson({ code: status, message: error.message, data: error.data }),
    replayed: false,
  };
}

/** Runs a verb body; an expected WalletError becomes its envelope, anything else propagates (5xx). */
export async function answer(run: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WalletError && !error.retryable) return failure(error);
    throw error;
  }
}

/** `parseInput` for code that answers instead of throwing: the value, or the 400 to answer. */
export function parseOutcome<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; outcome: Outcome } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, outcome: failure(new WalletError("BAD_REQUEST", describeIssues(result.error))) };
}

/** The contract's transfer response (`data` of /withdraw and /deposit). */
export function transferOutcome(transfer: {
  userId: string;
  operatorTxId: string;
  providerTxId: string;
  newBalance: bigint;
  currency: string;
}): Outcome {
  return success({
    user_id: transfer.userId,
    operator_tx_id: transfer.operatorTxId,
    provider_tx_id: transfer.providerTxId,
    new_balance: transfer.newBalance,
    currency: transfer.currency,
  });
}

/** Validates a verb's input with its schema (a verb's first line); a failure is a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new WalletError("BAD_REQUEST", describeIssues(result.error));
  return result.data;
}

/** The answer to a call the ledger could not run (a transient failure): 503, so the platform resends it. */
export const transientFailure: Outcome = {
  status: 503,
  body: stringifyJson({ code: 503, message: "temporarily unavailable; retry" }),
  replayed: false,
};
