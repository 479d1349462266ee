import type { LedgerJob } from "@wallet/contracts/jobs";
import type { LedgerContext } from "@wallet/ledger/context";
import type { Outcome } from "@wallet/ledger/outcome";
import { adjustBalance } from "@wallet/ledger/verbs/adjust";
import { authenticate } from "@wallet/ledger/verbs/authenticate";
import { balance } from "@wallet/ledger/verbs/balance";
import { deposit } from "@wallet/ledger/verbs/deposit";
import { withdraw } from "@wallet/ledger/verbs/withdraw";

/** Runs the ledger verb a job names. The producer validated the body; the verb does again. */
export function runCallback(ctx: LedgerContext, job: LedgerJob, body: unknown): Promise<Outcome> {
  const input = { tenantId: job.tenantId, body, bodySha256: job.bodySha256 };
  switch (job.op) {
    case "auth":
      return authenticate({ ctx, input });
    case "withdraw":
      return withdraw({ ctx, input });
    case "deposit":
      return deposit({ ctx, input });
    case "balance":
      return balance({ ctx, input });
    case "adjust":
      return adjustBalance({ ctx, input });
  }
}

/** The `result` label of an outcome. */
export function resultOf(outcome: Outcome): string {
  if (outcome.replayed) return outcome.status === 409 ? "conflict" : "replayed";
  if (outcome.status < 300) return "applied";
  return outcome.status >= 500 ? "failed" : "rejected";
}
