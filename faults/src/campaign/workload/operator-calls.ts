import { retryDelayMs } from "@wallet/platform-sim/wallet-client";
import { operatorToken } from "../../harness/fault-system.ts";
import type { Operation, OperationKind } from "../history/operation.ts";
import type { CampaignSystem } from "../system.ts";
import { campaignRetryPolicy } from "./retry-policy.ts";

export interface OperatorCall {
  kind: OperationKind;
  operatorId: number;
  method: string;
  path: string;
  body?: unknown;
  /** The bearer token (the configured operator token unless given). */
  token?: string;
  userId?: string | null;
  roundId?: string | null;
  key?: string | null;
  amount?: number | null;
  count?: number;
}

/**
 * The operator's back office calling the operator API (through the API's own proxy, so a restarted
 * API is the same address), each call recorded in the history as its caller saw it. A 503 or no
 * answer is resent with the same body, as the API asks ("retry with the same reference"), up to the
 * contract's 5 sends; the final answer is the operation's.
 */
export class OperatorCalls {
  readonly history: Omit<Operation, "id">[] = [];

  constructor(private readonly system: CampaignSystem) {}

  async call(call: OperatorCall): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
    const separator = call.path.includes("?") ? "&" : "?";
    const url = `${this.system.operatorApiUrl}${call.path}${separator}operatorId=${call.operatorId}`;
    const request = call.body === undefined ? "" : JSON.stringify(call.body);
    const invokedAt = Date.now();
    let status = 0;
    let reply = "";
    let attempts = 0;
    for (let attempt = 1; attempt <= campaignRetryPolicy.maxAttempts; attempt++) {
      attempts = attempt;
      if (attempt > 1)
        // The platform's own backoff (the simulator's), so both sides of the history resend alike.
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(campaignRetryPolicy, attempt)));
      try {
        const response = await fetch(url, {
          method: call.method,
          headers: {
            authorization: `Bearer ${call.token ?? operatorToken}`,
            ...(call.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: call.body === undefined ? undefined : request,
          signal: AbortSignal.timeout(campaignRetryPolicy.timeoutMs),
        });
        reply = await response.text();
        status = response.status;
        if (status < 500) break;
      } catch {
        status = 0;
        reply = "";
      }
    }
    const completed = status > 0 && status < 500;
    const json = parse(reply);
    const data = (json?.data ?? json) as Record<string, unknown> | undefined;
    const balance = completed && typeof data?.new_balance === "number" ? data.new_balance : null;
    this.history.push({
      source: "operator",
      kind: call.kind,
      operatorId: call.operatorId,
      userId: call.userId ?? null,
      roundId: call.roundId ?? null,
      key: call.key ?? null,
      betKey: null,
      amount: call.amount ?? null,
      ...(call.count === undefined ? {} : { count: call.count }),
      method: call.method,
      path: call.path,
      request,
      invokedAt,
      completedAt: status === 0 ? null : Date.now(),
      status,
      reply,
      balance,
      attempts,
    });
    return { status, json: data };
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
