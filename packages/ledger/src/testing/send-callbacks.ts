import { sha256Hex } from "@wallet/contracts/hash";
import type { CallbackInput } from "../callback-input.ts";
import type { Outcome } from "../outcome.ts";
import { deposit, withdraw } from "./callback-verbs.ts";
import type { TestLedger } from "./test-ledger.ts";

/** A callback as the gateway hands it over: parsed body plus the hash of the exact raw bytes. */
export function callbackInput(
  tenantId: number,
  body: Record<string, unknown>,
  raw = JSON.stringify(body),
): CallbackInput {
  return { tenantId, body: JSON.parse(raw), bodySha256: sha256Hex(raw) };
}

export interface Answer {
  status: number;
  raw: string;
  json: { code: number; message: string; data?: Record<string, unknown> };
  replayed: boolean;
  /** The anomalies the worker counts (`wallet_anomalies_total`); never in the body. */
  anomalies: string[];
}

function toAnswer(outcome: Outcome): Answer {
  return {
    status: outcome.status,
    raw: outcome.body,
    json: JSON.parse(outcome.body),
    replayed: outcome.replayed,
    anomalies: [...(outcome.anomalies ?? [])],
  };
}

export async function sendWithdraw(
  ledger: TestLedger,
  body: Record<string, unknown>,
  tenantId = 1,
  raw?: string,
) {
  return toAnswer(await withdraw({ ctx: ledger.ctx, input: callbackInput(tenantId, body, raw) }));
}

export async function sendDeposit(
  ledger: TestLedger,
  body: Record<string, unknown>,
  tenantId = 1,
  raw?: string,
) {
  return toAnswer(await deposit({ ctx: ledger.ctx, input: callbackInput(tenantId, body, raw) }));
}
