import type { CloseRoundEvent } from "@wallet/contracts/side-effects";
import type { Read as MultiRead } from "../sql/multi-statement.ts";
import { once, placeholders, tuples } from "../sql/sql-text.ts";

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
}

/** A closed round whose effects a batch applies: its event, the stored close, and who played (`round-summary.ts`). */
export interface ClosedRound {
  event: CloseRoundEvent;
  close: RoundClose;
  /**
   * What this event's loyalty, tournament and RG effects apply: the round at its close, or for a
   * late event the change its one line made (`closedRoundOf`).
   */
  players: PlayerInRound[];
  /** The whole round as read, late lines included: what its report sums. */
  roundPlayers: PlayerInRound[];
  /**
   * A late event only: what its player had staked in the round before its line (`closedRoundOf`),
   * so loyalty rounds the running total; undefined for a close, or a late line it cannot place.
   */
  stakedBefore?: bigint;
  /** 1, plus one for each money line booked into the round after its close. */
  revision: number;
  /**
   * Set on a part of a round too large for one transaction (`effect-transactions.ts`): the id of the
   * event it is part of. Its `event.eventId` is then the part's own receipt id, and applying it does
   * not yet count the event applied (the last part, under the event's own id, does).
   */
  partOf?: string;
}

export interface RunningTournament {
  id: number;
  tenantId: number;
  game: string;
  rule: "payout" | "stake";
  startsAt: Date;
  endsAt: Date;
}

/** What one side-effect transaction reads, in its first round trip. */
export interface RoundActivity {
  /** Event ids of the topic already applied (their receipts exist). */
  applied: Set<string>;
  /** Tournaments only: those on the batch's (operator, game) pairs running at some close of it. */
  tournaments: RunningTournament[];
  /**
   * Reporting only: each round's stored reconciliation (by `roundKeyOf`), locked, so a revision
   * knows whether the round already disagreed: `wallet_reconciliation_mismatches_total` counts rounds.
   */
  reconciled: Map<string, StoredReconciliation>;
}

/** A round's reconciliation as stored: its status, from its figures' revision. */
export interface StoredReconciliation {
  status: string;
  revision: number;
}

export const roundKeyOf = (tenantId: number, roundId: string) => `${tenantId}\n${roundId}`;

type Read = MultiRead<RoundActivity>;

/**
 * The statements a consumer's transaction reads: which of its events are applied already and, for
 * tournaments, the candidates running between the batch's first and last close. What the rounds did
 * comes with the events (`round-summary.ts`), read once for the four topics.
 */
export function activityReads(topic: string, rounds: ClosedRound[]): Read[] {
  const eventIds = rounds.map((round) => round.event.eventId);
  const reads: Read[] = [
    {
      sql: once(
        "effect-receipts",
        eventIds.length,
        (count) =>
          `SELECT event_id FROM side_effect_receipts WHERE topic = ? AND event_id IN (${placeholders(count)})`,
      ),
      values: [topic, ...eventIds],
      load: (rows, activity) => {
        for (const row of rows) activity.applied.add(String(row.event_id));
      },
    },
  ];
  if (topic === "reporting" && rounds.length > 0) {
    // FOR UPDATE (row locks on rows that exist: READ COMMITTED takes no gap locks) so that two
    // revisions of one round reported side by side read one after the other, and the round is counted
    // once. Its upsert takes these rows' locks anyway; here they are only taken a round trip sooner.
    const keys = [
      ...new Map(rounds.map(({ event }) => [roundKeyOf(event.tenantId, event.roundId), event])).values(),
    ];
    reads.push({
      sql: once(
        "effect-reconciled",
        keys.length,
        (count) =>
          "SELECT tenant_id, round_id, status, revision FROM round_reconciliations" +
          ` WHERE (tenant_id, round_id) IN (${tuples(count, 2)}) FOR UPDATE`,
      ),
      values: keys.flatMap((event) => [event.tenantId, event.roundId]),
      load: (rows, activity) => {
        for (const row of rows)
          activity.reconciled.set(roundKeyOf(Number(row.tenant_id), String(row.round_id)), {
            status: String(row.status),
            revision: Number(row.revision),
          });
      },
    });
  }
  if (topic === "tournaments" && rounds.length > 0) {
    // Candidates by (operator, game); each close is matched to the ones running at its own time.
    const games = [
      ...new Map(rounds.map((round) => [`${round.event.tenantId}\n${round.close.game}`, round])).values(),
    ];
    const times = rounds.map((round) => round.close.closedAt.getTime());
    reads.push({
      sql: once(
        "effect-tournaments",
        games.length,
        (count) =>
          "SELECT id, tenant_id, game, rule, starts_at, ends_at FROM tournaments" +
          ` WHERE (tenant_id, game) IN (${tuples(count, 2)}) AND starts_at <= ? AND ends_at > ?`,
      ),
      values: [
        ...games.flatMap((round) => [round.event.tenantId, round.close.game]),
        new Date(Math.max(...times)),
        new Date(Math.min(...times)),
      ],
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
