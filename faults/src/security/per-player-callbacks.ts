import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import type { AuthedPlayer } from "../harness/authed-player.ts";

export interface PerPlayerCallback {
  label: string;
  path: string;
  body: Record<string, unknown>;
  /** What a tenant that does not know the player is told, with a 404. */
  message: string;
}

/**
 * Every per-player callback kind, naming `player` by its user token, user_id or session: its /auth,
 * two BETs in `roundId` (1,000 and 2,000), a WIN of 5,000 on the first, a ROLL_BACK of the second,
 * and a balance by user_id and by session. `moneyTxIds` are the four money callbacks' provider_tx_id.
 */
export function perPlayerCallbacks(player: AuthedPlayer, roundId: string) {
  const betA = betBody(player, { action_id: roundId, amount: 1_000 });
  const betB = betBody(player, { action_id: roundId, amount: 2_000 });
  const win = settleBody(player, betA, "WIN", { amount: 5_000 });
  const rollback = settleBody(player, betB, "ROLL_BACK");
  const notFound = `user ${player.userId} not found`;
  const auth = {
    user_token: player.userToken,
    session_token: player.sessionToken,
    platform: "desktop",
    currency: "EUR",
  };
  const callbacks: PerPlayerCallback[] = [
    { label: "auth", path: "/auth", body: auth, message: "user_token not found" },
    { label: "BET a", path: "/withdraw", body: betA, message: notFound },
    { label: "BET b", path: "/withdraw", body: betB, message: notFound },
    { label: "WIN", path: "/deposit", body: win, message: notFound },
    { label: "ROLL_BACK", path: "/deposit", body: rollback, message: notFound },
    { label: "balance by user_id", path: "/balance", body: { user_id: player.userId }, message: notFound },
    {
      label: "balance by session",
      path: "/balance",
      body: { session_token: player.sessionToken },
      message: "session not found",
    },
  ];
  const moneyTxIds = [betA, betB, win, rollback].map((body) => String(body.provider_tx_id));
  return { callbacks, moneyTxIds };
}
