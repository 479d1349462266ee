import {
  type CloseRoundEvent,
  closeRoundEvent,
  type RoundReport,
  type SideEffectTopic,
} from "@wallet/contracts/side-effects";
import type { LedgerContext } from "../context.ts";
import { withTransaction } from "../transaction.ts";
import { awardLoyalty } from "./apply-loyalty.ts";
import { reportRound } from "./apply-reporting.ts";
import { countResponsibleGaming } from "./apply-rg.ts";
import { scoreTournaments } from "./apply-tournaments.ts";
import { claimEvent, markApplied } from "./receipts.ts";
import { findRoundClose, playersInRound } from "./round-activity.ts";

export interface SideEffectInput {
  topic: SideEffectTopic;
  event: unknown;
  /** Reporting only: hands the report to the reporting queue before the transaction commits. */
  publishReport?: (report: RoundReport) => Promise<void>;
  /** Test hook: runs after the effect is written, before the commit. */
  beforeCommit?: () => Promise<void>;
}

export type SideEffectResult =
  | { outcome: "applied"; rows: number; mismatch?: boolean }
  | { outcome: "duplicate" };

/**
 * Applies one side effect of a closed round in one MySQL transaction with its `(topic, eventId)`
 * receipt: exactly once, however often the event is delivered. A report is handed to the
 * reporting queue before the commit, so a crash republishes it (consumers deduplicate on its
 * event id) rather than losing it.
 */
export async function applySideEffect({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: SideEffectInput;
}): Promise<SideEffectResult> {
  const event: CloseRoundEvent = closeRoundEvent.parse(input.event);
  return withTransaction(ctx.db, async (tx): Promise<SideEffectResult> => {
    if (!(await claimEvent(tx, input.topic, event.eventId))) return { outcome: "duplicate" };
    const close = await findRoundClose(tx, event.tenantId, event.roundId);
    if (!close) throw new Error(`no CLOSE_ROUND stored for ${event.eventId}`);
    const players = await playersInRound(tx, event.tenantId, event.roundId);
    let result: SideEffectResult;
    switch (input.topic) {
      case "loyalty":
        result = {
          outcome: "applied",
          rows: await awardLoyalty(
            tx,
            event.tenantId,
            event.roundId,
            players,
            ctx.config.loyaltyPointsPer1000,
          ),
        };
        break;
      case "tournaments":
        result = { outcome: "applied", rows: await scoreTournaments(tx, event.tenantId, close, players) };
        break;
      case "rg":
        result = {
          outcome: "applied",
          rows: await countResponsibleGaming(tx, event.tenantId, close, players),
        };
        break;
      case "reporting": {
        const { report, mismatch } = await reportRound(tx, event.tenantId, event.roundId, close, players);
        await input.publishReport?.(report);
        result = { outcome: "applied", rows: 1, mismatch };
        break;
      }
    }
    await markApplied(tx, input.topic, event.eventId);
    await input.beforeCommit?.();
    return result;
  });
}
