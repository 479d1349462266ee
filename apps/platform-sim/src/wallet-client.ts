import { sign } from "@wallet/contracts/hmac";
import type { SimStats } from "./engine/stats.ts";
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
  let status = 0;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1) {
      const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 2));
      await new Promise((resolve) => setTimeout(resolve, backoff + Math.random() * policy.jitterMs));
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
