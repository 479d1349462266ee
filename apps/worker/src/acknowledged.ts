import type { LedgerCall } from "@wallet/contracts/jobs";
import { withdrawRequest } from "@wallet/contracts/wallet-request";
import type { Call } from "@wallet/ledger/calls/call";
import type { GroupPlan } from "@wallet/ledger/calls/plan";
import type { Outcome } from "@wallet/ledger/outcome";
import type { Acknowledged } from "@wallet/queue/ack-log";

// What each 200 told the platform, for the acknowledgement log (`@wallet/queue/ack-log`): the
// callbacks that move money or close a round, answered 200, whether applied now or replayed (a
// replay's first answer may never have been sent). Refusals moved nothing, reads move nothing, and
// an adjustment is the operator API's, not the platform's: none is logged.

interface PerBet {
  provider_tx_id: string;
  action: string;
  action_id: string;
  user_id: string;
}

const line = (tenantId: number, request: PerBet, amount: bigint, replayed: boolean): Acknowledged => ({
  operatorId: tenantId,
  providerTxId: request.provider_tx_id,
  action: request.action,
  roundId: request.action_id,
  userId: request.user_id,
  amount: String(amount),
  replayed,
});

/** A group-committed call's acknowledgement: its request as the batch ran it. */
export function acknowledgedInBatch(plan: GroupPlan, outcome: Outcome): Acknowledged | undefined {
  if (outcome.status !== 200 || plan.run !== "batch") return undefined;
  const { request } = plan;
  switch (request.kind) {
    case "BALANCE":
      return undefined;
    case "BET":
      return line(request.tenantId, request.request, -request.request.amount, outcome.replayed);
    case "CREDIT":
    case "ROLL_BACK":
      // A ROLL_BACK refunds its bet's own amount: the one it names but for a rollback marked
      // `rollback_amount_differs` (then the bet's journal line has the refund).
      return line(request.tenantId, request.request, request.request.amount, outcome.replayed);
    case "CLOSE":
      return {
        operatorId: request.tenantId,
        providerTxId: request.request.provider_tx_id,
        action: "CLOSE_ROUND",
        roundId: request.request.action_id,
        userId: null,
        amount: "0",
        replayed: outcome.replayed,
      };
  }
}

/** A call run alone: of those, only a FREE_BET moves anything the platform is told of (a grant, no money). */
export function acknowledgedAlone(call: LedgerCall & Call, outcome: Outcome): Acknowledged | undefined {
  if (outcome.status !== 200 || call.op !== "withdraw") return undefined;
  const parsed = withdrawRequest.safeParse(call.body);
  if (!parsed.success) return undefined;
  const amount = parsed.data.action === "BET" ? -parsed.data.amount : parsed.data.amount;
  return line(call.tenantId, parsed.data, amount, outcome.replayed);
}
