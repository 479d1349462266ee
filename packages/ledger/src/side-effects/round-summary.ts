import type { CloseRoundEvent, RoundSummary } from "@wallet/contracts/side-effects";
import type { RowDataPacket } from "mysql2/promise";
import type { Read } from "../batch/multi-statement.ts";
import { once, tuples } from "../batch/sql-text.ts";
import type { LedgerContext } from "../context.ts";
import { type ClosedRound, type PlayerInRound, roundKeyOf } from "./round-activity.ts";

/**
 * A closed round's summary (the stored close, what each player staked and won, their bets) is read
 * ONCE per relay turn and shipped in the four effects' jobs (`CloseRoundEvent.round`): the four
 * consumers used to read the same rows each, four times the reads for the same answer. Attribution
 * comes from our own records (CLOSE_ROUND names no player), never from the platform's arrays.
 */
export async function readRoundSummaries(
  ctx: LedgerContext,
  events: CloseRoundEvent[],
): Promise<Map<string, RoundSummary>> {
  const unique = [
    ...new Map(events.map((event) => [roundKeyOf(event.tenantId, event.roundId), event])).values(),
  ];
  const summaries = new Map<string, RoundSummary>();
  if (unique.length === 0) return summaries;
  const reads = summaryReads(unique.flatMap((event) => [event.tenantId, event.roundId]));
  // Plain reads, no transaction: everything read was committed with (or before) the close.
  const [results] = (await ctx.batch.query(
    reads.map((read) => read.sql).join(";\n"),
    reads.flatMap((read) => read.values),
  )) as unknown as [RowDataPacket[][]];
  const found = new Map<string, RoundSummary>();
  reads.forEach((read, index) => {
    read.load(results[index] ?? [], found);
  });
  for (const event of events) {
    const summary = found.get(roundKeyOf(event.tenantId, event.roundId));
    if (summary) summaries.set(event.eventId, summary);
  }
  return summaries;
}

/**
 * A summary as the effects compute with it (bigint millis, dates), players in id order (the order
 * their rows are locked in). `players` is what this event's loyalty, tournament and RG effects
 * apply: for a close, the round as it stood at the close (its late lines left out, each applies
 * its own change); for a late event, that one line's change. Reporting reports the whole round.
 */
export function closedRoundOf(event: CloseRoundEvent, round: RoundSummary): ClosedRound {
  const bets = (round.bets ?? []).map((bet) => ({
    ...bet,
    amount: BigInt(bet.amount),
    wonAmount: BigInt(bet.wonAmount),
  }));
  const roundPlayers = round.players
    .map(
      (player): PlayerInRound => ({
        ...player,
        staked: BigInt(player.staked),
        won: BigInt(player.won),
      }),
    )
    .sort((a, b) => a.playerId - b.playerId);
  const late = round.late ?? [];
  return {
    event,
    close: {
      game: round.game,
      closedAt: new Date(round.closedAt),
      stakes: round.stakes.map((stake) => BigInt(stake)),
      cashOutCoefficients: round.cashOutCoefficients,
    },
    players: event.late ? [lateChange(event.late)] : atClose(roundPlayers, late, bets),
    roundPlayers,
    bets,
    revision: 1 + late.length,
  };
}

function lateChange(late: NonNullable<CloseRoundEvent["late"]>): PlayerInRound {
  return {
    playerId: late.playerId,
    currency: late.currency,
    staked: BigInt(late.staked),
    won: BigInt(late.won),
    bets: 0,
  };
}

/**
 * The round's figures as they stood at its close: without a late BET's stake (and its bet, if it
 * still stands), a late WIN's payout, a late refund (its bet stood at the close, unless it was a
 * late bet too). Loyalty, tournaments and RG get the same sums whenever the close's effects run.
 */
function atClose(
  players: PlayerInRound[],
  late: NonNullable<RoundSummary["late"]>,
  bets: Array<{ providerTxId: string; status: string }>,
): PlayerInRound[] {
  const live = new Set(
    bets.filter((bet) => bet.status === "open" || bet.status === "won").map((bet) => bet.providerTxId),
  );
  const lateBets = new Set(late.filter((line) => line.kind === "BET").map((line) => line.providerTxId));
  const figures = players.map((player) => ({ ...player }));
  for (const line of late) {
    const player = figures.find((p) => p.playerId === line.playerId && p.currency === line.currency);
    if (!player) continue;
    const amount = BigInt(line.amount); // signed as journaled: a BET negative
    if (line.kind === "BET") {
      player.staked += amount;
      if (live.has(line.providerTxId)) player.bets -= 1;
    } else if (line.kind === "ROLL_BACK") {
      player.staked += amount;
      if (!lateBets.has(line.betProviderTxId)) player.bets += 1;
    } else player.won -= amount;
  }
  return figures;
}

type Summaries = Map<string, RoundSummary>;

/** Each read takes the batch's (tenant, round) pairs once, an index range per round. */
function summaryReads(pairs: unknown[]): Read<Summaries>[] {
  const rounds = pairs.length / 2;
  const keyOf = (row: RowDataPacket) => roundKeyOf(Number(row.tenant_id), String(row.round_id));
  // The close comes first: rows of a round without a stored close are left out with it.
  const playerOf = (summaries: Summaries, row: RowDataPacket) => {
    const summary = summaries.get(keyOf(row));
    if (!summary) return undefined;
    const playerId = Number(row.player_id);
    const currency = String(row.currency);
    let player = summary.players.find((seen) => seen.playerId === playerId && seen.currency === currency);
    if (!player) {
      player = { playerId, currency, staked: "0", won: "0", bets: 0 };
      summary.players.push(player);
    }
    return player;
  };
  return [
    {
      sql: once(
        "summary-closes",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, game, created_at, stakes, cash_out_coefficients FROM round_closes" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)})`,
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows) {
          try {
            summaries.set(keyOf(row), {
              game: String(row.game),
              closedAt: (row.created_at as Date).toISOString(),
              stakes: (JSON.parse(String(row.stakes)) as number[]).map((stake) => BigInt(stake).toString()),
              cashOutCoefficients: JSON.parse(String(row.cash_out_coefficients)) as number[],
              players: [],
              bets: [],
            });
          } catch {
            // A close stored unreadable (edited by hand, say) must not stop its batch: it is left
            // out, its effects fail on their own, and are dead-lettered (dead-letters.ts).
          }
        }
      },
    },
    {
      sql: once(
        "summary-money",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, player_id, currency," +
          " COALESCE(SUM(CASE WHEN kind IN ('BET', 'ROLL_BACK') THEN -amount ELSE 0 END), 0) AS staked," +
          " COALESCE(SUM(CASE WHEN kind IN ('WIN', 'FREE_BET_WIN') THEN amount ELSE 0 END), 0) AS won" +
          ` FROM journal_entries WHERE (tenant_id, round_id) IN (${tuples(count, 2)})` +
          " GROUP BY tenant_id, round_id, player_id, currency",
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows) {
          const player = playerOf(summaries, row);
          if (!player) continue;
          player.staked = BigInt(row.staked).toString();
          player.won = BigInt(row.won).toString();
        }
      },
    },
    {
      // Our bets, tombstones excluded: the reconciliation's side, and (open or won) the bet counts.
      sql: once(
        "summary-bets",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, player_id, currency, provider_tx_id, kind, amount, won_amount, status" +
          ` FROM bets WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) AND status <> 'tombstone'`,
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows) {
          const summary = summaries.get(keyOf(row));
          const status = String(row.status);
          summary?.bets?.push({
            providerTxId: String(row.provider_tx_id),
            kind: String(row.kind),
            amount: BigInt(row.amount).toString(),
            wonAmount: BigInt(row.won_amount).toString(),
            status,
          });
          const player = status === "open" || status === "won" ? playerOf(summaries, row) : undefined;
          if (player) player.bets += 1;
        }
      },
    },
    {
      // The lines booked after the close (anomalies.ts: after_close), in booking order.
      sql: once(
        "summary-late",
        rounds,
        (count) =>
          "SELECT j.tenant_id, j.round_id, j.player_id, j.currency, j.kind, j.amount, j.provider_tx_id," +
          " b.provider_tx_id AS bet_provider_tx_id FROM journal_entries j JOIN bets b ON b.id = j.bet_id" +
          ` WHERE (j.tenant_id, j.round_id) IN (${tuples(count, 2)}) AND j.anomaly LIKE '%after_close%' ORDER BY j.id`,
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows) {
          const summary = summaries.get(keyOf(row));
          if (!summary) continue;
          summary.late ??= [];
          summary.late.push({
            playerId: Number(row.player_id),
            currency: String(row.currency),
            kind: String(row.kind),
            amount: BigInt(row.amount).toString(),
            providerTxId: String(row.provider_tx_id),
            betProviderTxId: String(row.bet_provider_tx_id),
          });
        }
      },
    },
  ];
}
