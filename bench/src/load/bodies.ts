import { randomUUID } from "node:crypto";
import { sign } from "@wallet/contracts/hmac";

// The callbacks of a round, as the platform sends them: the load process's workload and the scaling
// study's own senders build the same bytes here, so both measure the same requests.

/** The game every round is played on; the scaling study's seeded tournament runs on it too. */
export const GAME = "crashGame";
const PROVIDER = "bench";

export interface Player {
  userId: string;
  sessionToken: string;
}

const roundFields = (player: Player, roundId: string) => ({
  currency: "EUR",
  provider: PROVIDER,
  game: GAME,
  action_id: roundId,
  session_token: player.sessionToken,
  platform: "desktop",
  user_id: player.userId,
});

export const betBody = (player: Player, roundId: string, betId: string, stake: number) => ({
  ...roundFields(player, roundId),
  amount: stake,
  provider_tx_id: betId,
  action: "BET",
  attributes: [],
});

/** A WIN, or the ROLL_BACK of the bet (`amount` is then its stake). */
export const settleBody = (
  player: Player,
  roundId: string,
  betId: string,
  amount: number,
  action: "WIN" | "ROLL_BACK" = "WIN",
) => ({
  ...roundFields(player, roundId),
  amount,
  provider_tx_id: randomUUID(),
  withdraw_provider_tx_id: betId,
  action,
  attributes: [],
});

export const closeBody = (roundId: string, stake: number, coefficient: number) => ({
  amount: 0,
  provider: PROVIDER,
  provider_tx_id: `${roundId}-close`,
  game: GAME,
  action: "CLOSE_ROUND",
  action_id: roundId,
  attributes: [
    { name: "crashGameCashOutCoefficients", value: JSON.stringify([coefficient]) },
    { name: "crashGameBets", value: JSON.stringify([stake]) },
  ],
});

/** The headers that sign `raw` as the tenant with these keys. */
export const signedHeaders = (raw: string, keys: { publicKey: string; secretKey: string }) => ({
  "x-public-key": keys.publicKey,
  "x-signature": sign(raw, keys.secretKey),
});
