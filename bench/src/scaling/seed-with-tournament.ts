import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createTournament } from "@wallet/ledger/verbs/admin";
import { benchTenant, seedDatabase } from "../seed.ts";
import { GAME } from "./callbacks.ts";

/**
 * The benchmark's seeded database plus a tournament running on the game, so the tournaments side
 * effect and the leaderboard read do real work.
 */
export async function seedWithTournament(url: string, players: number) {
  const seeded = await seedDatabase(url, players);
  const now = Date.now();
  const { tournamentId } = await createTournament({
    ctx: { db: seeded.database.db, batch: seeded.database.batch, config: defaultLedgerConfig },
    input: {
      tenantId: benchTenant.operatorId,
      game: GAME,
      name: "scaling",
      rule: "payout",
      startsAt: new Date(now - 3_600_000),
      endsAt: new Date(now + 86_400_000),
    },
  });
  return { ...seeded, tournamentId };
}
export type SeededWithTournament = Awaited<ReturnType<typeof seedWithTournament>>;
