import type { CloseRoundEvent, RoundSummary } from "@wallet/contracts/side-effects";
import type { RowDataPacket } from "mysql2/promise";
import type { LedgerContext } from "../context.ts";
import { type Read, readTogether } from "../sql/multi-statement.ts";
import { once, tuples } from "../sql/sql-text.ts";
import { type ClosedRound, type PlayerInRound, roundKeyOf } from "./round-activity.ts";

/**
 * The most rounds one round trip of summary reads names: its four statements each list the rounds'
 * (tenant, round) pairs, up to 128 characters of 4 bytes a round id, so a relay turn at
 * OUTBOX_RELAY_BATCH's maximum (5,000 rounds) was one 10 MiB packet, under MariaDB's 16 MiB
 * `max_allowed_packet` but not under half of it (issue 42). 1,000 rounds a round trip: about 2 MiB.
 */
export const summaryRoundsPerRead = 1_000;

/**
 * A closed round's summary (its game and close time, what each player staked and won and how many
 * bets stand, the lines booked after the close) is read ONCE per relay turn and shipped in the four
 * effects' jobs (`CloseRoundEvent.round`): the four consumers used to read the same rows each, four
 * times the reads for the same answer. Attribution comes from our own records (CLOSE_ROUND names
 * no player), never from the platform's arrays. Its size is bounded by the round's players and late
 * lines, never by the close: the close's arrays (up to 620,000 bets) and our bets are read by the
 * reporting consumer alone (`readReconciliationInputs`), the only effect that needs them. Read in
 * round trips of at most `roundsPerRead` rounds (`summaryRoundsPerRead`; a test passes fewer).
 */
export async function readRoundSummaries(
  ctx: LedgerContext,
  events: CloseRoundEvent[],
  roundsPerRead = summaryRoundsPerRead,
): Promise<Map<string, RoundSummary>> {
  const unique = [
    ...new Map(events.map((event) => [roundKeyOf(event.tenantId, event.roundId), event])).values(),
  ];
  const summaries = new Map<string, RoundSummary>();
  const found = new Map<string, RoundSummary>();
  for (let start = 0; start < unique.length; start += roundsPerRead) {
    const slice = unique.slice(start, start + roundsPerRead);
    // Everything read was committed with (or before) the close.
    await readTogether(
      ctx.batch,
      summaryReads(slice.flatMap((event) => [event.tenantId, event.roundId])),
      found,
    );
  }
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
  const live = liveBets(round);
  const figures = atClose(roundPlayers, late, live);
  return {
    event,
    close: { game: round.game, closedAt: new Date(round.closedAt) },
    players: event.late ? [lateChange(event.late)] : figures,
    roundPlayers,
    stakedBefore: event.late ? stakedBefore(event.late, figures, late) : undefined,
    revision: 1 + late.length,
  };
}

/**
 * Whether each late BET's bet still stands: carried on the late line (`betLive`); a summary shipped by
 * an earlier relay carries the round's bets instead.
 */
function liveBets(round: RoundSummary): (line: LateLine) => boolean {
  const standing = new Set(
    (round.bets ?? [])
      .filter((bet) => bet.status === "open" || bet.status === "won")
      .map((bet) => bet.providerTxId),
  );
  return (line) => line.betLive ?? standing.has(line.providerTxId);
}

type LateLine = NonNullable<RoundSummary["late"]>[number];

/**
 * What the late event's player had staked in the round before its line (the round at its close plus
 * the player's earlier late lines, in booking order): loyalty rounds the round's running total, so a
 * late line earns what it adds to the rounded total and the round ends with the points it would have
 * earned in order. Undefined when the line is not in the summary (an event of an earlier version):
 * the line's points are then rounded on their own, as before.
 */
function stakedBefore(
  event: NonNullable<CloseRoundEvent["late"]>,
  figures: PlayerInRound[],
  late: LateLine[],
): bigint | undefined {
  const at = late.findIndex((line) => line.operatorTxId === event.operatorTxId);
  if (at < 0) return undefined;
  let staked = figures
    .filter((player) => player.playerId === event.playerId)
    .reduce((sum, player) => sum + player.staked, 0n);
  for (const line of late.slice(0, at))
    if (line.playerId === event.playerId && (line.kind === "BET" || line.kind === "ROLL_BACK"))
      staked -= BigInt(line.amount); // journaled signed: a BET negative stakes, a refund positive unstakes
  return staked;
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
  late: LateLine[],
  live: (line: LateLine) => boolean,
): PlayerInRound[] {
  const lateBets = new Set(late.filter((line) => line.kind === "BET").map((line) => line.providerTxId));
  const figures = players.map((player) => ({ ...player }));
  for (const line of late) {
    const player = figures.find((p) => p.playerId === line.playerId && p.currency === line.currency);
    if (!player) continue;
    const amount = BigInt(line.amount); // signed as journaled: a BET negative
    if (line.kind === "BET") {
      player.staked += amount;
      if (live(line)) player.bets -= 1;
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
          "SELECT tenant_id, round_id, game, created_at FROM round_closes" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)})`,
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows)
          summaries.set(keyOf(row), {
            game: String(row.game),
            closedAt: (row.created_at as Date).toISOString(),
            players: [],
          });
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
      // The bets that stand (open or won; real and free): the rounds each player is counted in.
      sql: once(
        "summary-bet-counts",
        rounds,
        (count) =>
          "SELECT tenant_id, round_id, player_id, currency, COUNT(*) AS bets" +
          ` FROM bets WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) AND status IN ('open', 'won')` +
          " GROUP BY tenant_id, round_id, player_id, currency",
      ),
      values: pairs,
      load: (rows, summaries) => {
        for (const row of rows) {
          const player = playerOf(summaries, row);
          if (player) player.bets += Number(row.bets);
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
          " j.operator_tx_id, b.provider_tx_id AS bet_provider_tx_id, b.status AS bet_status" +
          " FROM journal_entries j JOIN bets b ON b.id = j.bet_id" +
          ` WHERE (j.tenant_id, j.round_id) IN (${tuples(count, 2)}) AND j.anomaly LIKE '%after_close%'` +
          // Booking order of each wallet's lines (`wallet_seq`: ids give no order on TiDB).
          " ORDER BY j.wallet_id, j.wallet_seq",
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
            operatorTxId: String(row.operator_tx_id),
            betProviderTxId: String(row.bet_provider_tx_id),
            betLive: row.bet_status === "open" || row.bet_status === "won",
          });
        }
      },
    },
  ];
}
