import { randomUUID } from "node:crypto";
import { authenticate } from "../verbs/authenticate.ts";
import { createPlayer } from "../verbs/create-player.ts";
import { mintUserToken } from "../verbs/mint-user-token.ts";
import type { TestLedger } from "./test-ledger.ts";

export interface TestPlayer {
  tenantId: number;
  userId: string;
  playerId: number;
  sessionToken: string;
  currency: string;
}

/** A player with a wallet, a minted user token and a session bound through the real `/auth` verb. */
export async function playerWithSession(
  ledger: TestLedger,
  options: {
    balance?: bigint;
    maxbet?: bigint;
    minbet?: bigint;
    maxwin?: bigint;
    currency?: string;
    tenantId?: number;
    /** The operator's id for it (a random UUID unless given). */
    userId?: string;
  } = {},
): Promise<TestPlayer> {
  const tenantId = options.tenantId ?? 1;
  const currency = options.currency ?? "EUR";
  const { playerId, userId } = await createPlayer({
    ctx: ledger.ctx,
    input: {
      tenantId,
      userId: options.userId,
      username: `player-${randomUUID().slice(0, 8)}`,
      currency,
      balance: options.balance ?? 100_000n,
      maxbet: options.maxbet ?? 1_000_000n,
      minbet: options.minbet,
      maxwin: options.maxwin,
    },
  });
  const { userToken } = await mintUserToken({
    ctx: ledger.ctx,
    input: { tenantId, userId, ttlSeconds: 3600 },
  });
  const sessionToken = `session-${randomUUID()}`;
  const auth = await authenticate({
    ctx: ledger.ctx,
    input: {
      tenantId,
      body: { user_token: userToken, session_token: sessionToken, platform: "desktop", currency },
    },
  });
  if (auth.status !== 200) throw new Error(`fixture /auth failed: ${auth.body}`);
  return { tenantId, userId, playerId, sessionToken, currency };
}
