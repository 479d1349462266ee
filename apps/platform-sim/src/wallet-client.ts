import { sign } from "@wallet/contracts/hmac";
import type { SeenAnswer, SimStats } from "./engine/stats.ts";
import type { SimOperator } from "./env.ts";

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  jitterMs: number;
  attempts: number;
  timeoutMs: number;
}

export interface CallbackAnswer {
  status: number;
  body: { code?: number; message?: string; data?: Record<string, unknown> } | undefined;
  attempts: number;
}

/**
 * Sends one signed callback to an operator's wallet as the platform does: the same bytes and
 * signature on every attempt; a retry only after a 5xx, a timeout or a connection error, with
 * exponential backoff from `baseMs`, capped at `maxMs`, plus up to `jitterMs` of jitter.
 */
export async function sendCallback(
  operator: SimOperator,
  path: "/auth" | "/withdraw" | "/deposit" | "/balance",
  body: Record<string, unknown>,
  policy: RetryPolicy,
  stats: SimStats,
  label: string,
): Promise<CallbackAnswer> {
  const raw = JSON.stringify(body);
  const headers = {
    "content-type": "application/json",
    "x-public-key": operator.publicKey,
    "x-signature": sign(raw, operator.secretKey),
  };
  const url = new URL(path, operator.walletUrl);
  const answer = await deliver(url, headers, raw, policy, stats, label);
  stats.answered(seenAnswer(operator, path, body, label, answer));
  return answer;
}

/** The retry loop: every attempt is recorded; the caller records the final outcome once. */
async function deliver(
  url: URL,
  headers: Record<string, string>,
  raw: string,
  policy: RetryPolicy,
  stats: SimStats,
  label: string,
): Promise<CallbackAnswer> {
  let status = 0;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
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
      const text = await response.text();
      status = response.status;
      stats.record(label, status, performance.now() - started, attempt > 1);
      if (status < 500) {
        let parsed: CallbackAnswer["body"];
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        return { status, body: parsed, attempts: attempt };
      }
    } catch {
      status = 0;
      stats.record(label, 0, performance.now() - started, attempt > 1);
    }
  }
  return { status, body: undefined, attempts: policy.attempts };
}

/** What the platform saw for one callback; id and balance only from a 200: only that acknowledges. */
function seenAnswer(
  operator: SimOperator,
  path: string,
  body: Record<string, unknown>,
  label: string,
  answer: CallbackAnswer,
): SeenAnswer {
  const data = answer.status === 200 ? answer.body?.data : undefined;
  const operatorTxId = data?.operator_tx_id;
  // /auth and /balance report the balance as `balance`; /withdraw and /deposit as `new_balance`.
  const balance = path === "/auth" || path === "/balance" ? data?.balance : data?.new_balance;
  return {
    label,
    operatorId: operator.operatorId,
    providerTxId: typeof body.provider_tx_id === "string" ? body.provider_tx_id : null,
    userId: typeof body.user_id === "string" ? body.user_id : null,
    amount: typeof body.amount === "number" ? body.amount : null,
    status: answer.status,
    attempts: answer.attempts,
    operatorTxId: typeof operatorTxId === "string" ? operatorTxId : null,
    balance: typeof balance === "number" ? balance : null,
  };
}

/** The pause before attempt `attempt` (2, 3, …): `baseMs` doubled each time, capped at `maxMs`, plus jitter. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random = Math.random): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 2)) + random() * policy.jitterMs;
}
