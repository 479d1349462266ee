import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { freeBetGrants } from "../schema/free-bet-grants.ts";
import type { Player } from "./find-player.ts";

/**
 * Takes one free bet from the player's eligible grant that expires soonest (a grant for this game
 * or for any game, not expired). Returns the grant id, or undefined when none is left.
 */
export async function consumeFreeBet(tx: Tx, player: Player, game: string): Promise<number | undefined> {
  const [grant] = await tx
    .select({ id: freeBetGrants.id })
    .from(freeBetGrants)
    .where(
      and(
        eq(freeBetGrants.playerId, player.id),
        gt(freeBetGrants.remaining, 0),
        or(isNull(freeBetGrants.game), eq(freeBetGrants.game, game)),
        or(isNull(freeBetGrants.expiresAt), sql`${freeBetGrants.expiresAt} > CURRENT_TIMESTAMP(3)`),
      ),
    )
    .orderBy(sql`${freeBetGrants.expiresAt} IS NULL`, asc(freeBetGrants.expiresAt), asc(freeBetGrants.id))
    .limit(1)
    .for("update");
  if (!grant) return undefined;
  await tx
    .update(freeBetGrants)
    .set({ remaining: sql`${freeBetGrants.remaining} - 1` })
    .where(and(eq(freeBetGrants.id, grant.id), gt(freeBetGrants.remaining, 0)));
  return grant.id;
}
