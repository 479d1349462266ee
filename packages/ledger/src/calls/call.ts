import type { CloseRefusal } from "@wallet/contracts/close-refusal";
import type { LedgerOp, StoredClose } from "@wallet/contracts/jobs";
import type { Outcome } from "../outcome.ts";

/**
 * One call as the ledger takes it: a callback (or an operator adjustment) with its body parsed.
 * A BullMQ job carries several (`LedgerJob.calls`); the worker adds the body to each.
 */
export interface Call {
  op: LedgerOp;
  tenantId: number;
  /** The JSON body as parsed from the wire; validated here first. */
  body: unknown;
  /** SHA-256 (hex) of the raw request bytes: the idempotency fingerprint. */
  bodySha256: string;
  /** The body as received, where the caller has it: what a refused CLOSE_ROUND is stored as. */
  rawBody?: string;
  /** The call's own trace: a call run alone continues it (a batch has a span of its own). */
  traceparent?: string;
  /** A CLOSE_ROUND the gateway refused before its schema: stored with this refusal, never re-judged. */
  closeRefusal?: CloseRefusal;
  /** A close the intake read and stored in pieces: only its round is left to close (`jobs.ts`). */
  storedClose?: StoredClose;
}

/** A call's outcome, or the error that kept it from one (a transient failure, answered 503). */
export type OutcomeOrError = { ok: true; outcome: Outcome } | { ok: false; error: unknown };

/** A verb's outcome as an `OutcomeOrError`: its error kept, never thrown, as a batch keeps each call's. */
export function settle(outcome: Promise<Outcome>): Promise<OutcomeOrError> {
  return outcome.then(
    (value): OutcomeOrError => ({ ok: true, outcome: value }),
    (error: unknown): OutcomeOrError => ({ ok: false, error }),
  );
}
