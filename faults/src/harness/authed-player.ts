import { randomUUID } from "node:crypto";
import { callGateway } from "@wallet/gateway/testing/system";
import type { TestPlayer } from "@wallet/ledger/testing/ledger-fixtures";
import { createPlayer, mintUserToken } from "@wallet/ledger/verbs/admin";
import { type FaultSystem, testTenants } from "./fault-system.ts";

/** A player of `tenantId` with a session opened through the gateway's real `/auth`, for hand-made callbacks. */
export async function authedPlayer(
  system: FaultSystem,
  tenantId = 1,
  balance = 100_000n,
): Promise<TestPlayer> {
  const tenant = testTenants.find((entry) => entry.operatorId === tenantId);
  if (!tenant) throw new Error(`no tenant ${tenantId}`);
  const ctx = system.ledger.ctx;
  const input = { tenantId, username: "faults-hand", currency: "EUR", balance, maxbet: 1_000_000n };
  const { playerId, userId } = await createPlayer({ ctx, input });
  const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 3600 } });
  const sessionToken = `session-${randomUUID()}`;
  const auth = await callGateway(
    { port: Number(new URL(system.walletUrl).port) },
    "/auth",
    { user_token: userToken, session_token: sessionToken, platform: "desktop", currency: "EUR" },
    { tenant },
  );
  if (auth.status !== 200) throw new Error(`auth failed: ${auth.text}`);
  return { tenantId, userId, playerId, sessionToken, currency: "EUR" };
}
