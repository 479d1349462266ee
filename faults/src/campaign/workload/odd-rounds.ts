import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { testTenants } from "../../harness/fault-system.ts";
import type { LaunchedPlayer } from "../../harness/platform-load.ts";
import type { Random } from "../schedule/random.ts";
import type { CampaignSystem } from "../system.ts";
import type { OperatorCalls } from "./operator-calls.ts";
import type { PlatformCalls } from "./platform-calls.ts";

export interface OddPlayer extends LaunchedPlayer {
  sessionToken: string;
}

/** The opening balance, cap and free bets every campaign player starts with (the checker's starting state). */
export const playerStart = { balance: 5_000_000n, maxbet: 5_000n, freeBets: 3 };

/**
 * Players of the campaign's own, outside the simulator's rounds, each with a session opened by
 * `/auth` (recorded in the history like any callback).
 */
export async function oddPlayers(
  system: CampaignSystem,
  calls: PlatformCalls,
  count: number,
  tag: string,
): Promise<OddPlayer[]> {
  const ctx = system.faults.ledger.ctx;
  const players: OddPlayer[] = [];
  for (let index = 0; index < count; index++) {
    const tenantId = testTenants[index % testTenants.length]?.operatorId ?? 1;
    const { playerId, userId } = await createPlayer({
      ctx,
      input: {
        tenantId,
        username: `${tag}-odd-${index}`,
        currency: "EUR",
        balance: playerStart.balance,
        maxbet: playerStart.maxbet,
      },
    });
    const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 3600 } });
    const sessionToken = `${tag}-session-${index}`;
    const auth = await calls.send(
      tenantId,
      "auth",
      { user_token: userToken, session_token: sessionToken, currency: "EUR", platform: "desktop" },
      "/auth",
    );
    if (auth.status !== 200) throw new Error(`/auth of an odd player answered ${auth.status}: ${auth.text}`);
    players.push({ tenantId, userId, playerId, sessionToken });
  }
  return players;
}

/**
 * Rounds the simulator never plays, for the contract's rarer paths: a close refused (its arrays of
 * different lengths: stored, answered 400) and then closed by hand through the operator API; money
 * after the close (a WIN that outlived it: booked and marked); a key reused with other bytes (409).
 */
export class OddRounds {
  private round = 0;

  constructor(
    private readonly platform: PlatformCalls,
    private readonly operator: OperatorCalls,
    private readonly random: Random,
    private readonly players: OddPlayer[],
    private readonly tag: string,
  ) {}

  async play(): Promise<void> {
    this.round += 1;
    const player = this.random.pick(this.players);
    const roundId = `${this.tag}-odd-${this.round}`;
    const base = {
      currency: "EUR",
      provider: "campaign",
      game: "crashGame",
      action_id: roundId,
      session_token: player.sessionToken,
      platform: "desktop",
      user_id: player.userId,
    };
    const betKey = `${roundId}-bet`;
    const stake = this.random.int(1, 40) * 100;
    const bet = { ...base, amount: stake, provider_tx_id: betKey, action: "BET", attributes: [] };
    const placed = await this.platform.send(player.tenantId, "withdraw", bet, "BET");
    if (this.random.chance(0.15))
      // The same key with other bytes: 409, nothing moves.
      await this.platform.send(player.tenantId, "withdraw", { ...bet, amount: stake + 100 }, "BET");
    if (placed.status !== 200) return;
    const win = {
      ...base,
      provider_tx_id: `${roundId}-win`,
      withdraw_provider_tx_id: betKey,
      action: "WIN",
      amount: Math.floor(stake * (1 + this.random.next())),
      attributes: [],
    };
    const late = this.random.chance(0.4);
    if (!late && (await this.platform.send(player.tenantId, "deposit", win, "WIN")).status !== 200) return;
    const coefficients = JSON.stringify([late ? 0 : 1.5]);
    const refused = this.random.chance(0.35);
    const close = {
      amount: 0,
      provider: "campaign",
      provider_tx_id: `${roundId}-${player.tenantId}-close-round`,
      game: "crashGame",
      action: "CLOSE_ROUND",
      action_id: roundId,
      attributes: [
        { name: "crashGameCashOutCoefficients", value: refused ? JSON.stringify([1.5, 2]) : coefficients },
        { name: "crashGameBets", value: JSON.stringify([stake]) },
      ],
    };
    const closed = await this.platform.send(player.tenantId, "deposit", close, "CLOSE_ROUND");
    if (refused && closed.status === 400)
      await this.operator.call({
        kind: "manual-close",
        operatorId: player.tenantId,
        method: "POST",
        path: `/v1/rounds/${encodeURIComponent(roundId)}/close`,
        body: {
          crashGameCashOutCoefficients: coefficients,
          crashGameBets: JSON.stringify([stake]),
          game: "crashGame",
        },
        roundId,
      });
    // Money after the close: booked, marked `after_close`, the round's effects brought up to date.
    if (late) await this.platform.send(player.tenantId, "deposit", win, "WIN");
  }
}
