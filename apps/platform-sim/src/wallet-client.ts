import {
  type CallbackReplyData,
  callbackCatalog,
  type ParsedReply,
  parseReply,
} from "@wallet/contracts/callback-catalog";
import { sign } from "@wallet/contracts/hmac";
import type { CallbackOp } from "@wallet/contracts/jobs";
import type { SeenAnswer, SimStats } from "./engine/stats.ts";
import type { SimOperator } from "./env.ts";

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  jitterMs: number;
  /** Sends of one callback in all, the first included (`CONTRACT_MAX_ATTEMPTS` by default). */
  maxAttempts: number;
  timeoutMs: number;
}

export interface CallbackAnswer<Op extends CallbackOp = CallbackOp> {
  status: number;
  /** The reply read against the catalog (`parseReply`); undefined when there was none or it did not fit. */
  reply: ParsedReply<Op> | undefined;
  /** Why a reply that came did not fit its schema: a wallet bug, counted in `SimStats.malformedReplies`. */
  malformed?: string;
  attempts: number;
  /** The final answer's body as it came ("" when none came). */
  text: string;
}

/**
 * Sends one signed callback to an operator's wallet as the platform does: the same bytes and
 * signature on every attempt; a retry only after a 5xx, a timeout or a connection error, with
 * exponential backoff from `baseMs`, capped at `maxMs`, plus up to `jitterMs` of jitter.
 */
export async function sendCallback<Op extends CallbackOp>(
  operator: SimOperator,
  op: Op,
  body: Record<string, unknown>,
  policy: RetryPolicy,
  stats: SimStats,
  label: string,
): Promise<CallbackAnswer<Op>> {
  const raw = JSON.stringify(body);
  const headers = {
    "content-type": "application/json",
    "x-public-key": operator.publicKey,
    "x-signature": sign(raw, operator.secretKey),
  };
  const url = new URL(callbackCatalog[op].path, operator.walletUrl);
  const invokedAt = Date.now();
  const answer = await deliver(op, url, headers, raw, policy, stats, label);
  if (answer.malformed) stats.malformedReplies += 1;
  stats.answered(seenAnswer(operator, { path: url.pathname, raw, body, invokedAt }, label, answer));
  return answer;
}

/** The retry loop: every attempt is recorded; the caller records the final outcome once. */
async function deliver<Op extends CallbackOp>(
  op: Op,
  url: URL,
  headers: Record<string, string>,
  raw: string,
  policy: RetryPolicy,
  stats: SimStats,
  label: string,
): Promise<CallbackAnswer<Op>> {
  let status = 0;
  let text = "";
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (attempt > 1) {
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(policy, attempt)));
    }
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: raw,
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      text = await response.text();
      status = response.status;
      stats.record(label, status, performance.now() - started, attempt > 1);
      if (status < 500) {
        try {
          return { status, reply: parseReply(op, status, text), attempts: attempt, text };
        } catch (error) {
          const malformed = error instanceof Error ? error.message : String(error);
          return { status, reply: undefined, malformed, attempts: attempt, text };
        }
      }
    } catch {
      status = 0;
      text = "";
      stats.record(label, 0, performance.now() - started, attempt > 1);
    }
  }
  return { status, reply: undefined, attempts: policy.maxAttempts, text };
}

/** What the platform saw for one callback; id and balance only from a 200: only that acknowledges. */
function seenAnswer(
  operator: SimOperator,
  sent: { path: string; raw: string; body: Record<string, unknown>; invokedAt: number },
  label: string,
  answer: CallbackAnswer,
): SeenAnswer {
  const { body } = sent;
  const data = answer.reply?.ok ? answer.reply.data : undefined;
  const balance = data === undefined ? undefined : reportedBalance(data);
  return {
    label,
    operatorId: operator.operatorId,
    providerTxId: typeof body.provider_tx_id === "string" ? body.provider_tx_id : null,
    userId: typeof body.user_id === "string" ? body.user_id : null,
    amount: typeof body.amount === "number" ? body.amount : null,
    status: answer.status,
    attempts: answer.attempts,
    operatorTxId: data && "operator_tx_id" in data ? data.operator_tx_id : null,
    balance: balance === undefined ? null : Number(balance),
    roundId: typeof body.action_id === "string" ? body.action_id : null,
    path: sent.path,
    request: sent.raw,
    reply: answer.text,
    invokedAt: sent.invokedAt,
    answeredAt: Date.now(),
    settles: typeof body.withdraw_provider_tx_id === "string" ? body.withdraw_provider_tx_id : null,
  };
}

/**
 * The balance a 200 reports: `/auth` calls it `balance`, `/balance` `amount`, a transfer `new_balance`;
 * a CLOSE_ROUND's acknowledgement has none. (Reading `balance` from a `/balance` reply found nothing.)
 */
export function reportedBalance(data: CallbackReplyData<CallbackOp>): bigint | undefined {
  if ("new_balance" in data) return data.new_balance;
  if ("amount" in data) return data.amount;
  if ("balance" in data) return data.balance;
  return undefined;
}

/** The pause before attempt `attempt` (2, 3, …): `baseMs` doubled each time, capped at `maxMs`, plus jitter. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random = Math.random): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 2)) + random() * policy.jitterMs;
}
