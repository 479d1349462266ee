import type { CloseRoundEvent } from "@wallet/contracts/side-effects";
import type { RowDataPacket } from "mysql2/promise";
import type { Read as MultiRead } from "../batch/multi-statement.ts";
import { once, placeholders, tuples } from "../batch/sql-text.ts";
import type { OperatorBet } from "./reconcile.ts";

export interface PlayerInRound {
  playerId: number;
  currency: string;
  /** Real money staked, net of rollbacks. */
  staked: bigint;
  /** WIN and FREE_BET_WIN credited. */
  won: bigint;
  /** Bets placed (real and free), rolled-back ones excluded. */
  bets: number;
}

export interface RoundClose {
  game: string;
  closedAt: Date;
  stakes: bigint[];
  cashOutCoefficients: number[];
}

/** A closed round whose effects a batch applies: its event, the stored close, and who played. */
export interface ClosedRound {
  event: CloseRoundEvent;
  close: RoundClose;
  players: PlayerInRound[];
}

export interface RunningTournament {
  id: number;
  tenantId: number;
  game: string;
  rule: "payout" | "stake";
  startsAt: Date;
  endsAt: Date;
}

/** What one side-effect batch reads, in one round trip. */
export interface RoundActivity {
  /** Event ids of the topic already applied (their receipts exist). */
  applied: Set<string>;
  closes: Map<string, RoundClose>;
  players: Map<string, PlayerInRound[]>;
  /** The same entries by (round, player, currency), while the reads fill them in. */
  entries: Map<string, PlayerInRound>;
  /** Reporting only: each round's bets as we recorded them, tombstones excluded. */
  bets: Map<string, OperatorBet[]>;
  /** Tournaments only: those on the batch's (operator, game) pairs running at some close of it. */
  tournaments: RunningTournament[];
}

export const roundKeyOf = (tenantId: number, roundId: string) => `${tenantId}\n${roundId}`;

type Read = MultiRead<RoundActivity>;

/**
 * The statements that read a batch's rounds: which events are applied already, the stored closes,
 * and what each of the operator's players did in each round, from our own records (CLOSE_ROUND names
 * no player, so attribution comes from the journal and the bets, never from the platform's arrays);
 * plus the bets for reporting and the running tournaments for tournaments. Every (tenant, round)
 * list is one `IN` of tuples, an index range per round.
 */
export function activityReads(
  topic: string,
  events: CloseRoundEvent[],
  extra: { bets: boolean; tournaments: boolean },
): Read[] {
  const n = events.length;
  const rounds = events.flatMap((event) => [event.tenantId, event.roundId]);
  const reads: Read[] = [
    {
      sql: once(
        "effect-receipts",
        n,
        (count) =>
          `SELECT event_id FROM side_effect_receipts WHERE topic = ? AND event_id IN (${placeholders(count)})`,
      ),
      values: [topic, ...events.map((event) => event.eventId)],
      load: (rows, activity) => {
        for (const row of rows) activity.applied.add(String(row.event_id));
      },
    },
    {
      sql: once(
        "effect-closes",
        n,
        (count) =>
          "SELECT tenant_id, round_id, game, created_at, stakes, cash_out_coefficients FROM round_closes" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)})`,
      ),
      values: rounds,
      load: (rows, activity) => {
        for (const row of rows)
          activity.closes.set(roundKeyOf(Number(row.tenant_id), String(row.round_id)), {
            game: String(row.game),
            closedAt: row.created_at as Date,
            stakes: (JSON.parse(String(row.stakes)) as number[]).map((stake) => BigInt(stake)),
            cashOutCoefficients: JSON.parse(String(row.cash_out_coefficients)) as number[],
          });
      },
    },
    {
      sql: once(
        "effect-money",
        n,
        (count) =>
          "SELECT tenant_id, round_id, player_id, currency," +
          " COALESCE(SUM(CASE WHEN kind IN ('BET', 'ROLL_BACK') THEN -amount ELSE 0 END), 0) AS staked," +
          " COALESCE(SUM(CASE WHEN kind IN ('WIN', 'FREE_BET_WIN') THEN amount ELSE 0 END), 0) AS won" +
          ` FROM journal_entries WHERE (tenant_id, round_id) IN (${tuples(count, 2)})` +
          " GROUP BY tenant_id, round_id, player_id, currency",
      ),
      values: rounds,
      load: (rows, activity) => {
        for (const row of rows) {
          const player = playerOf(activity, row);
          player.staked = BigInt(row.staked);
          player.won = BigInt(row.won);
        }
      },
    },
    {
      sql: once(
        "effect-bet-counts",
        n,
        (count) =>
          "SELECT tenant_id, round_id, player_id, currency, COUNT(*) AS bets FROM bets" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) AND status IN ('open', 'won')` +
          " GROUP BY tenant_id, round_id, player_id, currency",
      ),
      values: rounds,
      load: (rows, activity) => {
        for (const row of rows) playerOf(activity, row).bets = Number(row.bets);
      },
    },
  ];
  if (extra.bets)
    reads.push({
      sql: once(
        "effect-bets",
        n,
        (count) =>
          "SELECT tenant_id, round_id, provider_tx_id, kind, amount, won_amount, status FROM bets" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) AND status <> 'tombstone'`,
      ),
      values: rounds,
      load: (rows, activity) => {
        for (const row of rows) {
          const key = roundKeyOf(Number(row.tenant_id), String(row.round_id));
          const bet: OperatorBet = {
            providerTxId: String(row.provider_tx_id),
            kind: String(row.kind),
            amount: BigInt(row.amount),
            wonAmount: BigInt(row.won_amount),
            status: String(row.status),
          };
          activity.bets.set(key, [...(activity.bets.get(key) ?? []), bet]);
        }
      },
    });
  if (extra.tournaments) {
    // Candidates by (operator, game); each close is matched to the ones running at its own time.
    const games = [...new Map(events.map((event) => [`${event.tenantId}\n${event.game}`, event])).values()];
    reads.push({
      sql: once(`effect-tournaments-${games.length}`, n, (count) => {
        const closes = `FROM round_closes c WHERE (c.tenant_id, c.round_id) IN (${tuples(count, 2)})`;
        return (
          "SELECT id, tenant_id, game, rule, starts_at, ends_at FROM tournaments" +
          ` WHERE (tenant_id, game) IN (${tuples(games.length, 2)})` +
          ` AND starts_at <= (SELECT MAX(c.created_at) ${closes}) AND ends_at > (SELECT MIN(c.created_at) ${closes})`
        );
      }),
      values: [...games.flatMap((event) => [event.tenantId, event.game]), ...rounds, ...rounds],
      load: (rows, activity) => {
        for (const row of rows)
          activity.tournaments.push({
            id: Number(row.id),
            tenantId: Number(row.tenant_id),
            game: String(row.game),
            rule: row.rule === "stake" ? "stake" : "payout",
            startsAt: row.starts_at as Date,
            endsAt: row.ends_at as Date,
          });
      },
    });
  }
  return reads;
}

/** The (round, player, currency) entry a row adds to, created on first sight (rounds list them as seen). */
function playerOf(activity: RoundActivity, row: RowDataPacket): PlayerInRound {
  const round = roundKeyOf(Number(row.tenant_id), String(row.round_id));
  const playerId = Number(row.player_id);
  const currency = String(row.currency);
  const key = `${round}\n${playerId}\n${currency}`;
  let player = activity.entries.get(key);
  if (!player) {
    player = { playerId, currency, staked: 0n, won: 0n, bets: 0 };
    activity.entries.set(key, player);
    const players = activity.players.get(round);
    if (players) players.push(player);
    else activity.players.set(round, [player]);
  }
  return player;
}
