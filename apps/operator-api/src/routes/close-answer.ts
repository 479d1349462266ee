import type { CloseArrays } from "@wallet/contracts/close-round";
import { stringifyJson } from "@wallet/contracts/json";
import type { LedgerContext } from "@wallet/ledger/context";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { type LedgerEnvelope, ledgerEnvelope } from "../ledger-answer.ts";

/**
 * The first close's answer, in whatever the ledger answered a manual close: a 200 is it, and so is
 * the first answer inside an idempotency conflict (this route's key sent again with other bytes,
 * other arrays or another game, is a 409 carrying it in `data`): a round closes once, so that is the
 * first close answered again, not a refusal. Undefined for any other refusal (or a first answer that
 * was not a close): passed on as it is.
 */
export function firstClose(status: number, answer: LedgerEnvelope): LedgerEnvelope | undefined {
  if (status === 200) return answer;
  if (status !== 409) return undefined;
  const first = ledgerEnvelope.safeParse(answer.data);
  return first.success && first.data.code === 200 ? first.data : undefined;
}

/** Whether these arrays are other than those the round was closed with: then they were not applied. */
export async function differsFromClosed(
  ctx: LedgerContext,
  tenantId: number,
  roundId: string,
  sent: CloseArrays,
): Promise<boolean> {
  const applied = (await roundStatus({ ctx, input: { tenantId, roundId } }))?.close;
  if (!applied) throw new Error(`round ${roundId} answered a close but has none stored`);
  // The stored arrays were written from parsed numbers the same way: equal arrays, equal text.
  return (
    stringifyJson(sent.bets) !== stringifyJson(applied.stakes) ||
    stringifyJson(sent.cashOutCoefficients) !== stringifyJson(applied.cash_out_coefficients)
  );
}
