import { randomUUID } from "node:crypto";
import { holdWalletLock } from "@wallet/ledger/testing/locks";
import { callGateway, callWithRetry } from "@wallet/system-tests/harness/system";
import { expect } from "vitest";
import { authedPlayer } from "../harness/authed-player.ts";
import { startPlay, stopPlay } from "../harness/platform-load.ts";
import type { ObservedSystem } from "./observed-system.ts";

/**
 * The simulator's pause between rounds: a steady load the machine carries without queueing (the suite
 * runs seven servers and five apps on two cores), so "healthy" means within the SLO.
 */
export const playPauseMs = 100;

const launch = { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" };

/** Players as an operator makes them: created, given free bets and launched through the operator API. */
export async function operatorPlayers(observed: ObservedSystem, count: number): Promise<void> {
  for (let index = 0; index < count; index++) await operatorPlayer(observed, 1 + (index % 2));
}

/**
 * One player: created, given three free bets, and launched into the simulator's crash game. Each
 * player is launched once: a second session of the same player would bet twice a round and
 * (rightly) be refused 400 past its per-round maxbet.
 */
async function operatorPlayer(observed: ObservedSystem, operatorId: number): Promise<void> {
  const created = await observed.operatorCall("POST", "/v1/players", {
    username: `obs-${operatorId}`,
    currency: "EUR",
    balance: 5_000_000,
    maxbet: 5_000,
    operatorId,
  });
  expect(created.status).toBe(201);
  const player = `/v1/players/${String(created.json.user_id)}`;
  const grant = await observed.operatorCall("POST", `${player}/free-bets?operatorId=${operatorId}`, {
    count: 3,
  });
  expect(grant.status).toBe(201);
  const launched = await observed.operatorCall("POST", `${player}/launch?operatorId=${operatorId}`, launch);
  expect(launched.status).toBe(200);
}

/**
 * An operator's back office at work: a catalog refresh (a platform call), a new player launched
 * (another), reads and a 404. A label set appears with its first request, so rate() only sees it
 * from the next one: called twice, some seconds apart, as a back office would over minutes.
 */
export async function operatorTraffic(observed: ObservedSystem): Promise<void> {
  for (const operatorId of [1, 2]) {
    const refresh = await observed.operatorCall(
      "POST",
      `/v1/games/cache/invalidate?operatorId=${operatorId}`,
    );
    expect(refresh.status).toBe(204);
    expect((await observed.operatorCall("GET", `/v1/games?operatorId=${operatorId}`)).status).toBe(200);
    expect((await observed.operatorCall("GET", `/v1/refused-closes?operatorId=${operatorId}`)).status).toBe(
      200,
    );
  }
  await operatorPlayer(observed, 1);
  expect((await observed.operatorCall("GET", "/v1/players/obs-no-such-player?operatorId=1")).status).toBe(
    404,
  );
}

/** Answers the platform sees besides 200: 402, 404, 409, a refused signature and one 503 it then retries. */
export async function handMadeAnswers(observed: ObservedSystem): Promise<void> {
  const { system, sim } = observed;
  const player = await authedPlayer(system, 1, 1_000n, { username: "obs-hand" });
  const front = { port: Number(new URL(system.walletUrl).port) };
  const bet = (amount: number) => ({
    currency: "EUR",
    amount,
    provider: "platform-sim",
    provider_tx_id: randomUUID(),
    game: "crashGame",
    action: "BET",
    action_id: `obs-round-${randomUUID()}`,
    session_token: player.sessionToken,
    platform: "desktop",
    user_id: player.userId,
    attributes: [],
  });
  expect((await callGateway(front, "/withdraw", bet(5_000))).status).toBe(402);
  const first = bet(100);
  expect((await callGateway(front, "/withdraw", first)).status).toBe(200);
  expect((await callGateway(front, "/withdraw", { ...first, amount: 200 })).status).toBe(409);
  const unknownSession = { session_token: "obs-no-such-session", currency: "EUR", user_id: player.userId };
  expect((await callGateway(front, "/balance", unknownSession)).status).toBe(404);
  expect((await callGateway(front, "/withdraw", bet(100), { signature: "0".repeat(64) })).status).toBe(401);
  // One 503: the player's wallet row held by another transaction past the deadline while one bet
  // waits for it (the simulator paused, so nothing else waits); the platform's resend then lands.
  await stopPlay(sim);
  const held = bet(100);
  const lock = await holdWalletLock(system.ledger, player.playerId);
  const refused = await callGateway(front, "/withdraw", held).finally(() => lock.release());
  expect(refused.status).toBe(503);
  const retried = await callWithRetry([front], "/withdraw", held);
  expect(retried.status).toBe(200);
  await startPlay(sim, playPauseMs);
}
