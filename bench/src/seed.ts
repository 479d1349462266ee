import { randomUUID } from "node:crypto";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { dropDatabase, migrateDatabase } from "@wallet/ledger/migrate";
import { createPlayer, mintUserToken, upsertTenant } from "@wallet/ledger/verbs/admin";
import { authenticate } from "@wallet/ledger/verbs/authenticate";

export const benchTenant = { operatorId: 1, publicKey: "bench-public-key", secretKey: "bench-secret-key" };

export interface SeededPlayer {
  userId: string;
  sessionToken: string;
}

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
