import type { RowDataPacket } from "mysql2/promise";
import { closeArraysText, type StoredArrays } from "../close-pieces/close-arrays.ts";
import type { LedgerContext } from "../context.ts";
import { type Read, readTogether } from "../sql/multi-statement.ts";
import { once, tuples } from "../sql/sql-text.ts";
import type { OperatorBet } from "./reconcile.ts";
import { roundKeyOf } from "./round-activity.ts";

/** What a round's reconciliation pairs: the close's arrays as stored and our bets of the round. */
export interface ReconciliationInputs {
  stakes: bigint[];
  coefficients: number[];
  bets: OperatorBet[];
}

/** One round's inputs as read: its close's arrays as its row stores them (text, or the key of pieces), our bets. */
type RoundInputs = { stored: StoredArrays; bets: OperatorBet[] };

type Inputs = Map<string, RoundInputs>;

/**
 * The reporting consumer's own read of the rounds it reconciles (one round trip, plain reads: all of
 * it was committed with or before the close). Only reporting needs the close's arrays, which may
 * hold 620,000 bets, and our bets: read here once, they never travel through Redis. A round whose
 * stored arrays cannot be read (edited by hand, say) is left out: its reporting effect fails on its
 * own and is dead-lettered (`dead-letters.ts`); the other three effects do not need them.
 */
export async function readReconciliationInputs(
  ctx: LedgerContext,
  rounds: Array<{ tenantId: number; roundId: string }>,
): Promise<Map<string, ReconciliationInputs>> {
  const unique = [
    ...new Map(rounds.map((round) => [roundKeyOf(round.tenantId, round.roundId), round])).values(),
  ];
  const read: Inputs = new Map();
  const inputs = new Map<string, ReconciliationInputs>();
  if (unique.length === 0) return inputs;
  await readTogether(ctx.batch, inputReads(unique.flatMap((round) => [round.tenantId, round.roundId])), read);
  // The arrays wherever the close keeps them: its row, or (a large close) its pieces, a few a round trip.
  for (const [key, { stored, bets }] of read) {
    const arrays = readArrays(await closeArraysText(ctx.db, stored));
    if (arrays) inputs.set(key, { ...arrays, bets });
  }
  return inputs;
}

const keyOf = (row: RowDataPacket) => roundKeyOf(Number(row.tenant_id), String(row.round_id));

function inputReads(pairs: unknown[]): Read<Inputs>[] {
  const rounds = pairs.length / 2;
  return [
    {
      sql: once(
        "reconcile-closes",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, stakes, cash_out_coefficients, pieces_key FROM round_closes" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)})`,
      ),
      values: pairs,
      load: (rows, inputs) => {
        for (const row of rows)
          inputs.set(keyOf(row), {
            stored: {
              tenantId: Number(row.tenant_id),
              stakes: String(row.stakes),
              cashOutCoefficients: String(row.cash_out_coefficients),
              piecesKey: row.pieces_key === null ? null : String(row.pieces_key),
            },
            bets: [],
          });
      },
    },
    {
      sql: once(
        "reconcile-bets",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, provider_tx_id, kind, amount, won_amount, status FROM bets" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) AND status <> 'tombstone'`,
      ),
      values: pairs,
      load: (rows, inputs) => {
        for (const row of rows)
          inputs.get(keyOf(row))?.bets.push({
            providerTxId: String(row.provider_tx_id),
            kind: String(row.kind),
            amount: BigInt(row.amount),
            wonAmount: BigInt(row.won_amount),
            status: String(row.status),
          });
      },
    },
  ];
}

/** The stored arrays, or undefined when they are not two aligned JSON arrays of numbers. */
function readArrays(text: {
  stakes: string;
  cashOutCoefficients: string;
}): Omit<ReconciliationInputs, "bets"> | undefined {
  try {
    const stakes = JSON.parse(text.stakes) as unknown;
    const coefficients = JSON.parse(text.cashOutCoefficients) as unknown;
    if (!Array.isArray(stakes) || !Array.isArray(coefficients) || stakes.length !== coefficients.length)
      return undefined;
    if (!coefficients.every((coefficient) => typeof coefficient === "number")) return undefined;
    return { stakes: stakes.map((stake) => BigInt(stake as number)), coefficients };
  } catch {
    return undefined;
  }
}
