import { sha256Hex } from "@wallet/contracts/hash";
import type { LedgerCall, LedgerOp, OutcomeReply } from "@wallet/contracts/jobs";
import { partitionOf, serializationKey } from "@wallet/contracts/partition";
import type { DispatchRequest, LedgerCaller } from "./dispatcher.ts";

/** Where ledger calls go: the dispatcher and the partition count the deployment runs with. */
export interface LedgerRoute {
  dispatcher: LedgerCaller;
  partitions: number;
}

export interface LedgerCallRequest {
  op: LedgerOp;
  tenantId: number;
  /** The parsed body: what the call queues behind is read from it (`serializationKey`). */
  body: Record<string, unknown>;
  /** The bytes the ledger parses and stores, as text. */
  rawBody: string;
  /** SHA-256 of the bytes as received, when the caller has them (a BOM survives here, not in `rawBody`). */
  bodySha256?: string;
  /** A CLOSE_ROUND the gateway refused before its schema: the ledger stores this refusal. */
  closeRefusal?: LedgerCall["closeRefusal"];
  /** A close the intake stored in pieces: only its round is left to close. */
  storedClose?: LedgerCall["storedClose"];
  /** Milliseconds left for an answer. */
  budgetMs: number;
}

/**
 * One ledger call, routed the one way every caller routes it: behind its player (or round) on that
 * key's partition. The gateway and the operator API both call it, so neither builds a key of its own.
 * `reply` is undefined when no answer came within the budget.
 */
export async function callLedger(
  route: LedgerRoute,
  call: LedgerCallRequest,
): Promise<{ partition: number; reply: OutcomeReply | undefined }> {
  const partition = partitionOf(call.tenantId, serializationKey(call.op, call.body), route.partitions);
  const job: DispatchRequest["job"] = {
    op: call.op,
    tenantId: call.tenantId,
    rawBody: call.rawBody,
    bodySha256: call.bodySha256 ?? sha256Hex(call.rawBody),
    ...(call.closeRefusal ? { closeRefusal: call.closeRefusal } : {}),
    ...(call.storedClose ? { storedClose: call.storedClose } : {}),
  };
  const reply = await route.dispatcher.call({ partition, budgetMs: call.budgetMs, job });
  return { partition, reply };
}
