import { callbackCatalog } from "@wallet/contracts/callback-catalog";
import { type CloseRefusal, isCloseRound } from "@wallet/contracts/close-refusal";
import type { LedgerOp } from "@wallet/contracts/jobs";
import type {
  BetRequest,
  CloseRoundRequest,
  FreeBetWinRequest,
  RollbackRequest,
  WinRequest,
} from "@wallet/contracts/wallet-request";
import type { Outcome } from "../outcome.ts";
import { parseOutcome } from "../outcome.ts";

/** One ledger job as a worker hands it over: the operation, the tenant, the parsed JSON, its bytes' hash. */
export interface CallbackJob {
  op: LedgerOp;
  tenantId: number;
  /** The JSON body as parsed from the wire; validated here first. */
  body: unknown;
  /** SHA-256 (hex) of the raw request bytes: the idempotency fingerprint. */
  bodySha256: string;
  /** The body as received, where the caller has it: what a refused CLOSE_ROUND is stored as. */
  rawBody?: string;
  /** The job's own trace: a job run alone continues it (a batch has a span of its own). */
  traceparent?: string;
  /** A CLOSE_ROUND the gateway refused before its schema: stored with this refusal, never re-judged. */
  closeRefusal?: CloseRefusal;
}

/** A money callback the group commit runs, keyed for idempotency by `(tenant, provider_tx_id)`. */
export type MoneyRequest =
  | { kind: "BET"; tenantId: number; bodySha256: string; request: BetRequest }
  | { kind: "CREDIT"; tenantId: number; bodySha256: string; request: WinRequest | FreeBetWinRequest }
  | { kind: "ROLL_BACK"; tenantId: number; bodySha256: string; request: RollbackRequest }
  | {
      kind: "CLOSE";
      tenantId: number;
      bodySha256: string;
      request: CloseRoundRequest;
      /** The close's trace: its four side effects link back to it. */
      traceparent?: string;
    };

/** `/balance` by `user_id` (the platform's usual form): a read, no idempotency record. */
export interface BalanceRead {
  kind: "BALANCE";
  tenantId: number;
  request: { user_id: string; session_token?: string; currency?: string };
}

export type BatchRequest = MoneyRequest | BalanceRead;

/**
 * What runs where. The callbacks the platform sends in volume (BET, WIN, FREE_BET_WIN, ROLL_BACK,
 * CLOSE_ROUND, /balance by user) go into the group commit; the rare ones (FREE_BET, /auth,
 * adjustments, /balance by session only) run alone with their
 * own verbs; a body that fails its schema is answered 400 here and never stored.
 */
export type Planned =
  | { run: "batch"; request: BatchRequest }
  | { run: "alone" }
  | { run: "answered"; outcome: Outcome };

export function planCallback(job: CallbackJob): Planned {
  const { tenantId, bodySha256 } = job;
  switch (job.op) {
    case "withdraw": {
      const parsed = parseOutcome(callbackCatalog.withdraw.request, job.body);
      if (!parsed.ok) return { run: "answered", outcome: parsed.outcome };
      const request = parsed.value;
      return request.action === "BET"
        ? { run: "batch", request: { kind: "BET", tenantId, bodySha256, request } }
        : { run: "alone" };
    }
    case "deposit": {
      // The gateway saw what JSON.parse hides (a repeated key, bytes that are not UTF-8): the body
      // may even parse here, so it is not judged again but stored as refused (verbs/refused-closes.ts).
      if (job.closeRefusal) return { run: "alone" };
      const parsed = parseOutcome(callbackCatalog.deposit.request, job.body);
      // A refused CLOSE_ROUND is stored before it is answered (verbs/refused-closes.ts).
      if (!parsed.ok)
        return isCloseRound(job.body) ? { run: "alone" } : { run: "answered", outcome: parsed.outcome };
      const request = parsed.value;
      switch (request.action) {
        case "WIN":
        case "FREE_BET_WIN":
          return { run: "batch", request: { kind: "CREDIT", tenantId, bodySha256, request } };
        case "ROLL_BACK":
          return { run: "batch", request: { kind: "ROLL_BACK", tenantId, bodySha256, request } };
        case "CLOSE_ROUND":
          return {
            run: "batch",
            request: { kind: "CLOSE", tenantId, bodySha256, request, traceparent: job.traceparent },
          };
      }
      break;
    }
    case "balance": {
      const parsed = parseOutcome(callbackCatalog.balance.request, job.body);
      if (!parsed.ok) return { run: "answered", outcome: parsed.outcome };
      const { user_id, session_token, currency } = parsed.value;
      if (user_id === undefined) return { run: "alone" };
      return {
        run: "batch",
        request: { kind: "BALANCE", tenantId, request: { user_id, session_token, currency } },
      };
    }
  }
  return { run: "alone" };
}

/**
 * One caller's jobs in their order, as runs: everything between two rare verbs together (one
 * group-committed transaction), each rare verb on its own. Running the runs one after the other
 * keeps a player's callbacks in order even where one of them runs alone.
 */
export function inOrderRuns<T>(items: T[], alone: (item: T) => boolean): T[][] {
  const runs: T[][] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (last && !alone(item) && !alone(last[0] as T)) last.push(item);
    else runs.push([item]);
  }
  return runs;
}
