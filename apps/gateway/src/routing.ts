import type { CallbackOp } from "@wallet/contracts/jobs";
import { userIdHint } from "@wallet/contracts/user-token";

/**
 * What a callback queues behind: the player for every per-player callback (so one player's
 * callbacks run one at a time, in order), the round for CLOSE_ROUND (which has no player).
 * `body` has passed its contract schema.
 */
export function serializationKey(op: CallbackOp, body: Record<string, unknown>): string {
  switch (op) {
    case "auth": {
      const token = String(body.user_token);
      const userId = userIdHint(token);
      return userId === undefined ? `token:${token}` : `user:${userId}`;
    }
    case "balance":
      return body.user_id === undefined
        ? `session:${String(body.session_token)}`
        : `user:${String(body.user_id)}`;
    case "withdraw":
    case "deposit":
      return body.action === "CLOSE_ROUND"
        ? `round:${String(body.action_id)}`
        : `user:${String(body.user_id)}`;
  }
}
