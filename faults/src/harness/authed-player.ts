import { randomUUID } from "node:crypto";
import type { TestPlayer } from "@wallet/ledger/testing/players";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { type CallResult, callGateway } from "@wallet/system-tests/harness/system";
import { type FaultSystem, type TestTenant, testTenants } from "./fault-system.ts";

export interface AuthedPlayer extends TestPlayer {
  userToken: string;
}

/** The `/auth` callback's body. */
export interface AuthBody {
  user_token: string;
  session_token: string;
  platform: string;
  currency: string;
}

export interface SessionOptions {
  /** The session to bind; a fresh `session-<uuid>` by default. */
  sessionToken?: string;
  /** Sends the `/auth` callback; by default signed, through the front proxy (e.g. to record what was sent). */
  send?: (body: AuthBody, tenant: TestTenant) => Promise<CallResult>;
}

/** A fresh `/auth` body for an existing player: a newly minted user token, and `sessionToken` or a new one. */
export async function mintAuthBody(
  system: FaultSystem,
  player: { tenantId: number; userId: string },
  sessionToken = `session-${randomUUID()}`,
): Promise<AuthBody> {
  const { tenantId, userId } = player;
  const { userToken } = await mintUserToken({
    ctx: system.ledger.ctx,
    input: { tenantId, userId, ttlSeconds: 3600 },
  });
  return { user_token: userToken, session_token: sessionToken, platform: "desktop", currency: "EUR" };
}

/** Binds a session to an existing player through the gateway's real `/auth`, with a newly minted user token. */
export async function openSession(
  system: FaultSystem,
  player: { tenantId: number; userId: string },
  options: SessionOptions = {},
): Promise<{ userToken: string; sessionToken: string }> {
  const tenant = testTenants.find((entry) => entry.operatorId === player.tenantId);
  if (!tenant) throw new Error(`no tenant ${player.tenantId}`);
  const body = await mintAuthBody(system, player, options.sessionToken);
  const send =
    options.send ??
    ((auth, signer) =>
      callGateway({ port: Number(new URL(system.walletUrl).port) }, "/auth", auth, { tenant: signer }));
  const auth = await send(body, tenant);
  if (auth.status !== 200) throw new Error(`auth failed: ${auth.text}`);
  return { userToken: body.user_token, sessionToken: body.session_token };
}

/** A player of `tenantId` with a session opened through the gateway's real `/auth`, for hand-made callbacks. */
export async function authedPlayer(
  system: FaultSystem,
  tenantId = 1,
  balance = 100_000n,
  options: SessionOptions & { username?: string } = {},
): Promise<AuthedPlayer> {
  const username = options.username ?? "faults-hand";
  const input = { tenantId, username, currency: "EUR", balance, maxbet: 1_000_000n };
  const { playerId, userId } = await createPlayer({ ctx: system.ledger.ctx, input });
  const { userToken, sessionToken } = await openSession(system, { tenantId, userId }, options);
  return { tenantId, userId, playerId, sessionToken, currency: "EUR", userToken };
}
