import { randomUUID } from "node:crypto";
import { sign } from "@wallet/contracts/hmac";
import { httpPoster } from "../load/http-client.ts";
import { benchTenant, type SeededPlayer } from "../seed.ts";

// Signed callbacks as the platform sends them, the same bodies as the benchmark's workload
// (load/workload.ts), for the phases that send their own: one verb at a time (serial) or rounds on
// one partition (partition), which the load process's random mix cannot do.

/** The game every round is played on; the seeded tournament runs on it too. */
export const GAME = "crashGame";

export interface Answered {
  status: number;
  ms: number;
  ended: number;
}

export function signedSender(baseUrl: string, sockets: number) {
  const client = httpPoster(baseUrl, sockets, 10_000);
  const send = async (route: string, body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    const started = performance.now();
    const answer = await client.post(route, raw, {
      "x-public-key": benchTenant.publicKey,
      "x-signature": sign(raw, benchTenant.secretKey),
    });
    const ended = performance.now();
    return { ...answer, ms: ended - started, ended };
  };
  return { send, close: client.close };
}
export type Send = ReturnType<typeof signedSender>["send"];

const base = (player: SeededPlayer, roundId: string) => ({
  currency: "EUR",
  provider: "bench",
  game: GAME,
  action_id: roundId,
  session_token: player.sessionToken,
  platform: "desktop",
  user_id: player.userId,
});

export const betBody = (player: SeededPlayer, roundId: string, betId: string, stake: number) => ({
  ...base(player, roundId),
  amount: stake,
  provider_tx_id: betId,
  action: "BET",
  attributes: [],
});

export const winBody = (player: SeededPlayer, roundId: string, betId: string, payout: number) => ({
  ...base(player, roundId),
  amount: payout,
  provider_tx_id: randomUUID(),
  withdraw_provider_tx_id: betId,
  action: "WIN",
  attributes: [],
});

export const closeBody = (roundId: string, stake: number, coefficient: number) => ({
  amount: 0,
  provider: "bench",
  provider_tx_id: `${roundId}-close`,
  game: GAME,
  action: "CLOSE_ROUND",
  action_id: roundId,
  attributes: [
    { name: "crashGameCashOutCoefficients", value: JSON.stringify([coefficient]) },
    { name: "crashGameBets", value: JSON.stringify([stake]) },
  ],
});

/** One full round for one player: BET, WIN (twice the stake), CLOSE_ROUND; statuses and latencies. */
export async function playRound(
  send: Send,
  player: SeededPlayer,
  roundId: string,
  record: (action: string, answer: Answered) => void,
): Promise<void> {
  const betId = randomUUID();
  const stake = 1_000;
  record("BET", await send("/withdraw", betBody(player, roundId, betId, stake)));
  record("WIN", await send("/deposit", winBody(player, roundId, betId, stake * 2)));
  record("CLOSE_ROUND", await send("/deposit", closeBody(roundId, stake, 2)));
}
