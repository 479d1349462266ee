import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db.ts";
import { bets } from "../schema/bets.ts";
import { loyaltyAwards } from "../schema/loyalty.ts";
import { players } from "../schema/players.ts";

export interface RoundKey {
  tenantId: number;
  roundId: string;
}

export const roundKey = (round: RoundKey) => `${round.tenantId}:${round.roundId}`;

/**
 * The `user_id`s of each round's players, as the ledger knows them: its bets (tombstones included: a
 * ROLL_BACK names its player) and its loyalty awards (written from the close's own summary, so they
 * name the players of a round whose close the ledger lost but whose effects arrived). Keyed by
 * `roundKey`; a round the ledger names no player of is absent. A repair is made per player
 * (`POST /v1/players/{user_id}/adjustments`), so every list the operator reconciles from names them.
 */
export async function roundPlayers(db: Db, rounds: RoundKey[]): Promise<Map<string, string[]>> {
  const found = new Map<string, Set<string>>();
  const add = (tenantId: number, roundId: string, userId: string) => {
    const key = roundKey({ tenantId, roundId });
    found.set(key, (found.get(key) ?? new Set()).add(userId));
  };
  for (const [tenantId, roundIds] of byTenant(rounds)) {
    for (let at = 0; at < roundIds.length; at += 500) {
      const chunk = roundIds.slice(at, at + 500);
      const [fromBets, fromAwards] = await Promise.all([
        db
          .selectDistinct({ roundId: bets.roundId, userId: players.userId })
          .from(bets)
          .innerJoin(players, eq(players.id, bets.playerId))
          .where(and(eq(bets.tenantId, tenantId), inArray(bets.roundId, chunk))),
        db
          .selectDistinct({ roundId: loyaltyAwards.roundId, userId: players.userId })
          .from(loyaltyAwards)
          .innerJoin(players, eq(players.id, loyaltyAwards.playerId))
          .where(and(eq(loyaltyAwards.tenantId, tenantId), inArray(loyaltyAwards.roundId, chunk))),
      ]);
      for (const row of [...fromBets, ...fromAwards]) add(tenantId, row.roundId, row.userId);
    }
  }
  return new Map([...found].map(([key, userIds]) => [key, [...userIds].sort()]));
}

/** Round ids grouped by operator, each once. */
export function byTenant(rounds: RoundKey[]): Map<number, string[]> {
  const grouped = new Map<number, Set<string>>();
  for (const round of rounds)
    grouped.set(round.tenantId, (grouped.get(round.tenantId) ?? new Set()).add(round.roundId));
  return new Map([...grouped].map(([tenantId, ids]) => [tenantId, [...ids]]));
}
