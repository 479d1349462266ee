import { and, desc, eq } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { loyaltyBalances } from "../schema/loyalty.ts";
import { players } from "../schema/players.ts";
import { rgDaily } from "../schema/rg-daily.ts";
import { wallets } from "../schema/wallets.ts";

/** A player with balance, loyalty points and responsible-gaming counters (newest day first). */
export async function playerSummary({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string };
}) {
  const { db } = ctx;
  const [player] = await db
    .select()
    .from(players)
    .where(and(eq(players.tenantId, input.tenantId), eq(players.userId, input.userId)));
  if (!player) return undefined;
  const [wallet] = await db
    .select({ balance: wallets.balance })
    .from(wallets)
    .where(and(eq(wallets.playerId, player.id), eq(wallets.currency, player.currency)));
  const [loyalty] = await db
    .select({ points: loyaltyBalances.points })
    .from(loyaltyBalances)
    .where(eq(loyaltyBalances.playerId, player.id));
  const days = await db
    .select()
    .from(rgDaily)
    .where(eq(rgDaily.playerId, player.id))
    .orderBy(desc(rgDaily.day))
    .limit(31);
  return {
    user_id: player.userId,
    operator_id: player.tenantId,
    username: player.username,
    currency: player.currency,
    balance: wallet?.balance ?? 0n,
    maxbet: player.maxbet,
    minbet: player.minbet ?? undefined,
    maxwin: player.maxwin ?? undefined,
    loyalty_points: loyalty?.points ?? 0n,
    rg: days.map((day) => ({
      day: day.day,
      staked: day.staked,
      won: day.won,
      net_loss: day.netLoss,
      rounds: day.rounds,
    })),
  };
}
