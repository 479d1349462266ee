import type { RowDataPacket } from "mysql2/promise";
import { closeArraysText } from "../close-pieces/close-arrays.ts";
import type { LedgerContext } from "../context.ts";
import type { Read } from "../sql/multi-statement.ts";
import { once, tuples } from "../sql/sql-text.ts";
import type { OperatorBet } from "./reconcile.ts";
import { roundKeyOf } from "./round-activity.ts";

/** What a round's reconciliation pairs: the close's arrays as stored and our bets of the round. */
export interface ReconciliationInputs {
  stakes: bigint[];
  coefficients: number[];
  bets: OperatorBet[];
}

/** One round's inputs as read: a close whose arrays are in pieces (`piecesKey`) is completed after the read. */
type RoundInputs = ReconciliationInputs & { tenantId: number; piecesKey: string | null };

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
): Promise<Inputs> {
  const unique = [
    ...new Map(rounds.map((round) => [roundKeyOf(round.tenantId, round.roundId), round])).values(),
  ];
  const inputs: Inputs = new Map();
  if (unique.length === 0) return inputs;
  const reads = inputReads(unique.flatMap((round) => [round.tenantId, round.roundId]));
  const [results] = (await ctx.batch.query(
    reads.map((read) => read.sql).join(";\n"),
    reads.flatMap((read) => read.values),
  )) as unknown as [RowDataPacket[][]];
  reads.forEach((read, index) => {
    read.load(results[index] ?? [], inputs);
  });
  // A large close's arrays are in pieces (`close_pieces`), read a few per round trip.
  for (const [key, input] of inputs) {
    if (!input.piecesKey) continue;
    const arrays = readArrays(
      await closeArraysText(ctx.db, { ...input, stakes: "", cashOutCoefficients: "" }),
    );
    if (arrays) inputs.set(key, { ...input, ...arrays, piecesKey: null });
    else inputs.delete(key);
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
        for (const row of rows) {
          const tenantId = Number(row.tenant_id);
          if (row.pieces_key !== null) {
            const piecesKey = String(row.pieces_key);
            inputs.set(keyOf(row), { stakes: [], coefficients: [], bets: [], tenantId, piecesKey });
            continue;
          }
          const arrays = readArrays({
            stakes: String(row.stakes),
            cashOutCoefficients: String(row.cash_out_coefficients),
          });
          if (arrays) inputs.set(keyOf(row), { ...arrays, bets: [], tenantId, piecesKey: null });
        }
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
