import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";
import { adjustBalance } from "../verbs/adjust-balance.ts";
import { authenticate } from "../verbs/authenticate.ts";
import { balanceBySession } from "../verbs/balance-by-session.ts";
import { placeFreeBet } from "../verbs/place-free-bet.ts";
import { refuseClose } from "../verbs/refused-closes.ts";
import type { Call } from "./call.ts";

/** A rare verb (FREE_BET, /auth, adjustments, /balance by session, a refused close) in its own transaction. */
export function runAlone(ctx: LedgerContext, call: Call): Promise<Outcome> {
  const input = { tenantId: call.tenantId, body: call.body, bodySha256: call.bodySha256 };
  switch (call.op) {
    case "auth":
      return authenticate({ ctx, input });
    case "adjust":
      return adjustBalance({ ctx, input });
    case "balance":
      return balanceBySession({ ctx, input });
    case "withdraw":
      return placeFreeBet({ ctx, input });
    case "deposit":
      // Every /deposit that parses is group-committed: planCall sends only a refused CLOSE_ROUND
      // here, refused by its schema or by the gateway before it (`closeRefusal`).
      return refuseClose({
        ctx,
        input: { ...input, rawBody: call.rawBody, refusal: call.closeRefusal },
      });
  }
}
