import type { DocRun } from "@wallet/system-tests/docs/doc-blocks";
import { expect } from "vitest";
import type { SeenAnswer } from "../../harness/platform-load.ts";
import type { LostRoundLine } from "./lost-rounds.ts";

/** A CLOSE_ROUND's game and arrays as the platform sent them, by `<operator>\n<round>`: what a repair resends. */
export function closeArrays(answers: SeenAnswer[]) {
  const closes = new Map<string, { game: string; bets: string; coefficients: string }>();
  for (const answer of answers.filter((seen) => seen.label === "CLOSE_ROUND")) {
    const body = JSON.parse(answer.request) as {
      game: string;
      attributes: Array<{ name: string; value: string }>;
    };
    const attribute = (name: string) => body.attributes.find((item) => item.name === name)?.value ?? "";
    closes.set(`${answer.operatorId}\n${answer.roundId}`, {
      game: body.game,
      bets: attribute("crashGameBets"),
      coefficients: attribute("crashGameCashOutCoefficients"),
    });
  }
  return closes;
}

export interface RepairBlocks {
  adjustment: string;
  transactions: string;
  close: string;
}

type RunBlock = (ref: string, env: Record<string, string>) => Promise<DocRun>;

/**
 * The runbook's repairs, run as written through the operator API: the first lost BET taken again by
 * an adjustment (twice: the second moves nothing) and then seen in the player's journal; the first
 * lost close booked again from the platform's arrays. What each answered.
 */
export async function repairOneOfEach(
  listed: LostRoundLine[],
  closes: ReturnType<typeof closeArrays>,
  blocks: RepairBlocks,
  run: RunBlock,
) {
  const lines = listed.flatMap((round) => round.lines.map((line) => ({ round, line })));
  const bet = lines.find(({ line }) => line.kind === "BET" && line.userId !== null);
  if (!bet) throw new Error("no lost BET to repair");
  const variables = {
    OPERATOR_ID: String(bet.round.operatorId),
    USER_ID: bet.line.userId ?? "",
    ROUND_ID: bet.round.roundId,
    KIND: bet.line.kind,
    AMOUNT: String(bet.line.amount),
    PROVIDER_TX_ID: bet.line.providerTxId ?? "",
  };
  const first = JSON.parse((await run(blocks.adjustment, variables)).stdout) as {
    amount: number;
    reference: string;
  };
  expect(first).toMatchObject({ amount: bet.line.amount, reference: bet.line.providerTxId });
  const again = JSON.parse((await run(blocks.adjustment, variables)).stdout) as unknown;
  expect(again).toEqual(first);
  const journal = JSON.parse((await run(blocks.transactions, variables)).stdout) as {
    items: Array<{ kind: string; amount: number; provider_tx_id: string | null }>;
  };
  const adjustments = journal.items.filter(
    (item) =>
      item.kind === "ADJUSTMENT" && item.provider_tx_id === `operator-adjustment:${bet.line.providerTxId}`,
  );
  expect(adjustments.map((item) => item.amount)).toEqual([bet.line.amount]);

  const lostClose = listed.find(
    (round) =>
      round.lines.some((line) => line.kind === "CLOSE_ROUND") &&
      closes.has(`${round.operatorId}\n${round.roundId}`),
  );
  if (!lostClose) throw new Error("no lost close to repair");
  const arrays = closes.get(`${lostClose.operatorId}\n${lostClose.roundId}`);
  const closed = JSON.parse(
    (
      await run(blocks.close, {
        OPERATOR_ID: String(lostClose.operatorId),
        ROUND_ID: lostClose.roundId,
        GAME: arrays?.game ?? "",
        BETS: arrays?.bets ?? "",
        COEFFICIENTS: arrays?.coefficients ?? "",
      })
    ).stdout,
  ) as { round_id: string; replayed: boolean };
  expect(closed).toMatchObject({ round_id: lostClose.roundId, replayed: false });
  return {
    adjustment: { userId: variables.USER_ID, amount: bet.line.amount, reference: variables.PROVIDER_TX_ID },
    close: { roundId: lostClose.roundId, lostLines: lostClose.lines.length },
  };
}
