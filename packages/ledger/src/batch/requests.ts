import type {
  BetRequest,
  CloseRoundRequest,
  FreeBetWinRequest,
  RollbackRequest,
  WinRequest,
} from "@wallet/contracts/wallet-request";

/** A close's arrays as the batch stores them: JSON text in its row, or already in `close_pieces`. */
export interface CloseArraysStored {
  betCount: number;
  /** The two arrays as JSON text; empty when they are in pieces. */
  stakes: string;
  cashOutCoefficients: string;
  /** The key of the pieces holding them (a close past the ordinary body limit), else null. */
  piecesKey: string | null;
}

/**
 * The most calls one group-committed transaction may take (the worker's `LEDGER_MAX_BATCH` is at most
 * this): what the size budgets (`portability/size-budgets.ts`) hold a batch's round trips to.
 */
export const maxBatchCalls = 1024;

/** A money callback the group commit runs, keyed for idempotency by `(tenant, provider_tx_id)`. */
export type MoneyRequest =
  | { kind: "BET"; tenantId: number; bodySha256: string; request: BetRequest }
  | { kind: "CREDIT"; tenantId: number; bodySha256: string; request: WinRequest | FreeBetWinRequest }
  | { kind: "ROLL_BACK"; tenantId: number; bodySha256: string; request: RollbackRequest }
  | {
      kind: "CLOSE";
      tenantId: number;
      bodySha256: string;
      request: Omit<CloseRoundRequest, "attributes">;
      arrays: CloseArraysStored;
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
