import type {
  BetRequest,
  CloseRoundRequest,
  FreeBetWinRequest,
  RollbackRequest,
  WinRequest,
} from "@wallet/contracts/wallet-request";

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
