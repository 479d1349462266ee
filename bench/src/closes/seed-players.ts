import { randomUUID } from "node:crypto";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import type { Database } from "@wallet/ledger/db";
import { authenticate } from "@wallet/ledger/verbs/authenticate";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { upsertTenant } from "@wallet/ledger/verbs/upsert-tenant";
import type { Player } from "../load/bodies.ts";
import { closesTenants } from "./tenants.ts";

/**
 * `count` players for each operator in a database its own version's migrator made (the players,
 * tokens and sessions tables are the same in both versions compared), each with a large balance and
 * a live session, as `pnpm bench`'s seed makes them for its one tenant.
 */
export async function seedPlayers(database: Database, count: number): Promise<Map<number, Player[]>> {
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };
  const seeded = new Map<number, Player[]>();
  for (const { operatorId, publicKey } of closesTenants) {
    await upsertTenant({ ctx, input: { id: operatorId, publicKey } });
    const players: Player[] = [];
    for (let first = 0; first < count; first += 16) {
      const batch = Array.from({ length: Math.min(16, count - first) }, (_, i) =>
        seedPlayer(ctx, operatorId, first + i),
      );
      players.push(...(await Promise.all(batch)));
    }
    seeded.set(operatorId, players);
  }
  return seeded;
}

async function seedPlayer(ctx: LedgerContext, tenantId: number, index: number): Promise<Player> {
  const { userId } = await createPlayer({
    ctx,
    input: {
      tenantId,
      userId: `closes-${tenantId}-${index}`,
      username: `closes player ${index}`,
      currency: "EUR",
      balance: 1_000_000_000n,
      maxbet: 1_000_000n,
    },
  });
  const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 86_400 } });
  const sessionToken = `closes-session-${randomUUID()}`;
  const auth = await authenticate({
    ctx,
    input: {
      tenantId,
      body: { user_token: userToken, session_token: sessionToken, platform: "desktop", currency: "EUR" },
    },
  });
  if (auth.status !== 200)
    throw new Error(`seeding player ${index} of ${tenantId}: /auth answered ${auth.body}`);
  return { userId, sessionToken };
}
