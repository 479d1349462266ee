import { randomUUID } from "node:crypto";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { dropDatabase, migrateDatabase } from "@wallet/ledger/migrate";
import { authenticate } from "@wallet/ledger/verbs/authenticate";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { createTournament } from "@wallet/ledger/verbs/create-tournament";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { upsertTenant } from "@wallet/ledger/verbs/upsert-tenant";
import { GAME, type Player } from "./load/bodies.ts";
import { benchTenant } from "./product.ts";

/** A seeded player: what the load signs its callbacks for. */
export type SeededPlayer = Player;

/**
 * A fresh database with `count` players, each with a large balance and a live session (what /auth
 * would have bound), so the measured load is bets, wins, rollbacks and closes only.
 */
export async function seedDatabase(
  url: string,
  count: number,
): Promise<{ database: Database; players: SeededPlayer[] }> {
  await dropDatabase(url);
  await migrateDatabase(url);
  const database = createDatabase({ url, poolSize: 8 });
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };
  await upsertTenant({ ctx, input: { id: benchTenant.operatorId, publicKey: benchTenant.publicKey } });
  const players: SeededPlayer[] = [];
  const batch = 16;
  for (let first = 0; first < count; first += batch) {
    const made = await Promise.all(
      Array.from({ length: Math.min(batch, count - first) }, (_, offset) => seedPlayer(ctx, first + offset)),
    );
    players.push(...made);
  }
  return { database, players };
}

/**
 * The scaling study's database: the benchmark's, plus a tournament running on the game, so the
 * tournaments side effect and the leaderboard read do real work.
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

async function seedPlayer(ctx: LedgerContext, index: number): Promise<SeededPlayer> {
  const tenantId = benchTenant.operatorId;
  const { userId } = await createPlayer({
    ctx,
    input: {
      tenantId,
      userId: `bench-${index}`,
      username: `bench player ${index}`,
      currency: "EUR",
      balance: 1_000_000_000n,
      maxbet: 1_000_000n,
    },
  });
  const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 86_400 } });
  const sessionToken = `bench-session-${randomUUID()}`;
  const auth = await authenticate({
    ctx,
    input: {
      tenantId,
      body: { user_token: userToken, session_token: sessionToken, platform: "desktop", currency: "EUR" },
    },
  });
  if (auth.status !== 200) throw new Error(`seeding player ${index}: /auth answered ${auth.body}`);
  return { userId, sessionToken };
}
