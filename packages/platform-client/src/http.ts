import { currentTraceparent, inSpan, SpanKind } from "@wallet/telemetry/spans";
import { PlatformError } from "./platform-error.ts";

export type PlatformCall = "catalog" | "launch";

/** Hooks for metrics; the client itself knows nothing of Prometheus. */
export interface PlatformObserver {
  /** One HTTP attempt: the call, its status (or `timeout` / `network`) and its duration. */
  request?: (call: PlatformCall, status: string, seconds: number) => void;
  /** One catalog read and how it was served. */
  catalogLookup?: (result: "hit" | "miss" | "stale" | "error") => void;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First pause; doubled each time. */
  baseDelayMs: number;
  timeoutMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 3, baseDelayMs: 200, timeoutMs: 3_000 };

/**
 * GET JSON from the platform. 5xx, timeouts and connection errors are retried with exponential
 * backoff (they are safe to retry, per the contract); 4xx are final and become precise errors.
 */
export function getJson(
  url: URL,
  headers: Record<string, string>,
  policy: RetryPolicy,
  call: PlatformCall,
  observer: PlatformObserver = {},
): Promise<unknown> {
  return inSpan(
    `GET ${url.pathname}`,
    { kind: SpanKind.CLIENT, attributes: { "http.request.method": "GET", "wallet.platform.call": call } },
    () => getWithRetries(url, headers, policy, call, observer),
  );
}

async function getWithRetries(
  url: URL,
  headers: Record<string, string>,
  policy: RetryPolicy,
  call: PlatformCall,
  observer: PlatformObserver,
): Promise<unknown> {
  const traceparent = currentTraceparent();
  const sent = traceparent ? { ...headers, traceparent } : headers;
  let last: PlatformError | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1) await sleep(policy.baseDelayMs * 2 ** (attempt - 2));
    let response: Response;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      response = await fetch(url, { headers: sent, signal: AbortSignal.timeout(policy.timeoutMs) });
      observer.request?.(call, String(response.status), seconds());
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      observer.request?.(call, timedOut ? "timeout" : "network", seconds());
      last = new PlatformError(
        "unavailable",
        timedOut ? `platform timed out after ${policy.timeoutMs} ms` : "platform unreachable",
      );
      continue;
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      last = new PlatformError("unavailable", `platform answered ${response.status}`, response.status);
      continue;
    }
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 300);
      throw clientError(response.status, detail);
    }
    try {
      return await response.json();
    } catch {
      throw new PlatformError(
        "invalid_response",
        "platform answered something that is not JSON",
        response.status,
      );
    }
  }
  throw last ?? new PlatformError("unavailable", "platform unreachable");
}

function clientError(status: number, detail: string): PlatformError {
  const suffix = detail ? `: ${detail}` : "";
  switch (status) {
    case 400:
      return new PlatformError("bad_request", `platform refused the request (400)${suffix}`, status);
    case 401:
      return new PlatformError(
        "unauthorized",
        `platform does not accept our public key (401)${suffix}`,
        status,
      );
    case 404:
      return new PlatformError("not_found", `platform does not know it (404)${suffix}`, status);
    default:
      return new PlatformError("bad_request", `platform answered ${status}${suffix}`, status);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
