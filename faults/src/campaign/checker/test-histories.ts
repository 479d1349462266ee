import type { Operation, OperationKind } from "../history/operation.ts";
import type { PlayerStart } from "./player-start.ts";

// Histories written by hand for the checker's tests: one player, operation by operation.

export const PLAYER = { operatorId: 1, userId: "player-1" } as const;

export const startOf = (balance: bigint, over: Partial<PlayerStart> = {}): PlayerStart => ({
  ...PLAYER,
  balance,
  maxbet: 1_000_000n,
  currency: "EUR",
  ...over,
});

export interface Spec {
  kind: OperationKind;
  key?: string;
  round?: string;
  bet?: string;
  amount?: number;
  count?: number;
  /** The final status; 0 for none. */
  status: number;
  balance?: number;
  /** [invokedAt, completedAt]; by default the operation runs alone after the previous one. */
  at?: [number, number | null];
  request?: string;
}

const SOURCE: Partial<Record<OperationKind, Operation["source"]>> = {
  adjust: "operator",
  "grant-free-bets": "operator",
  "mint-token": "operator",
  "revoke-token": "operator",
  "manual-close": "operator",
};

/** The bytes a callback sends (what idempotency compares), built from its fields. */
export function requestOf(spec: Spec): string {
  if (spec.kind === "adjust")
    return JSON.stringify({ amount: spec.amount, reason: "cashier", reference: spec.key });
  return JSON.stringify({
    action: spec.kind,
    provider_tx_id: spec.key,
    action_id: spec.round,
    withdraw_provider_tx_id: spec.bet,
    amount: spec.amount,
    currency: "EUR",
    user_id: PLAYER.userId,
  });
}

/** Operations from specs: ids in order, each 10 ms after the previous one unless `at` says otherwise. */
export function history(specs: readonly Spec[], origin = 0): Operation[] {
  return specs.map((given, index) => {
    const money = given.key !== undefined && SOURCE[given.kind] === undefined;
    const spec = { ...given, round: given.round ?? (money ? "round-1" : undefined) };
    const [invokedAt, completedAt] = spec.at ?? [origin + index * 10, origin + index * 10 + 5];
    return {
      id: index,
      source: SOURCE[spec.kind] ?? "platform",
      kind: spec.kind,
      ...PLAYER,
      roundId: spec.round ?? null,
      key: spec.key ?? null,
      betKey: spec.bet ?? null,
      amount: spec.amount ?? null,
      ...(spec.count === undefined ? {} : { count: spec.count }),
      method: "POST",
      path: `/${spec.kind}`,
      request: spec.request ?? requestOf(spec),
      invokedAt,
      completedAt: spec.status === 0 ? null : completedAt,
      status: spec.status,
      reply: "",
      balance: spec.balance ?? null,
      attempts: spec.status === 0 || spec.status >= 500 ? 5 : 1,
    };
  });
}
