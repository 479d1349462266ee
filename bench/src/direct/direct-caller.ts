import { randomUUID } from "node:crypto";
import type { LedgerReply } from "@wallet/contracts/jobs";
import { stringifyJson } from "@wallet/contracts/json";
import type { LedgerContext } from "@wallet/ledger/context";
import type { DispatchRequest, LedgerCaller } from "@wallet/queue/dispatcher";
import type { Logger } from "@wallet/telemetry/logger";
import { runCallback } from "@wallet/worker/run-callback";

/**
 * The baseline's ledger: the worker's own `runCallback` (the same verbs, the same transaction per
 * callback), called in the HTTP process. No queue, no Redis, no per-partition serialization: the
 * wallet row lock alone orders a player's callbacks.
 */
export class DirectCaller implements LedgerCaller {
  constructor(
    private readonly ctx: LedgerContext,
    private readonly logger: Logger,
  ) {}

  async call({ job }: DispatchRequest): Promise<LedgerReply> {
    const id = randomUUID();
    let body: unknown;
    try {
      body = JSON.parse(job.rawBody);
    } catch {
      body = undefined;
    }
    try {
      const outcome = await runCallback(this.ctx, { ...job, deadline: 0, replyTo: "" }, body);
      return { id, ...outcome };
    } catch (error) {
      this.logger.error({ err: error, op: job.op }, "ledger verb failed");
      const failure = stringifyJson({ code: 503, message: "temporarily unavailable; retry" });
      return { id, status: 503, body: failure, replayed: false };
    }
  }
}
