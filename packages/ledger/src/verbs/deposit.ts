import { depositRequest } from "@wallet/contracts/wallet-request";
import type { CallbackInput } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import { keyOf, runIdempotent } from "../idempotency.ts";
import { answer, type Outcome, parseInput } from "../outcome.ts";
import { closeRound } from "./close-round.ts";
import { refundBet } from "./rollback.ts";
import { creditWin } from "./win.ts";

/** `/deposit`: WIN and FREE_BET_WIN credit, ROLL_BACK refunds, CLOSE_ROUND notifies. */
export async function deposit({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: CallbackInput;
}): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(depositRequest, input.body);
    return runIdempotent(ctx, keyOf(input, request), (tx) => {
      switch (request.action) {
        case "WIN":
        case "FREE_BET_WIN":
          return creditWin(tx, input.tenantId, request);
        case "ROLL_BACK":
          return refundBet(tx, input.tenantId, request);
        case "CLOSE_ROUND":
          return closeRound(tx, input.tenantId, request);
      }
    });
  });
}
