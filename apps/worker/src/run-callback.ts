import type { LedgerJob } from "@wallet/contracts/jobs";
import { depositActions, withdrawActions } from "@wallet/contracts/wallet-request";
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

const walletActions = new Set<string>([...withdrawActions, ...depositActions]);

/** The `action` label of a job: a contract action for /withdraw and /deposit, `none` otherwise (a closed set). */
export function actionOf(body: unknown): string {
  const action = (body as { action?: unknown } | null)?.action;
  return typeof action === "string" && walletActions.has(action) ? action : "none";
}

/** The `result` label of an outcome. */
export function resultOf(outcome: Outcome): string {
  if (outcome.replayed) return outcome.status === 409 ? "conflict" : "replayed";
  if (outcome.status < 300) return "applied";
  return outcome.status >= 500 ? "failed" : "rejected";
}
