import { createHash } from "node:crypto";
import type { LedgerOp } from "./jobs.ts";
import { userIdHint } from "./user-token.ts";

/**
 * The ledger partition a key lands on: stable across processes, restarts and machines (the
 * first 4 bytes of SHA-1), so one player's callbacks always queue behind each other.
 */
export function partitionOf(tenantId: number, key: string, partitions: number): number {
  const digest = createHash("sha1").update(`${tenantId}:${key}`).digest();
  return digest.readUInt32BE(0) % partitions;
}

/** What every call that moves or reads one player's money queues behind. */
export const playerKey = (userId: string) => `user:${userId}`;
/** What a CLOSE_ROUND (which has no player) queues behind: its round. */
export const roundKey = (roundId: string) => `round:${roundId}`;

/**
 * What a ledger call queues behind: the player for every per-player call (so one player's
 * callbacks and the operator's adjustments run one at a time, in order), the round for CLOSE_ROUND.
 * The one owner of the key: the gateway and the operator API both route through it, so a manual
 * close and the platform's close of one round, or an adjustment and a BET of one player, share a
 * partition. `body` has passed its contract schema (or is a CLOSE_ROUND refused by it).
 */
export function serializationKey(op: LedgerOp, body: Record<string, unknown>): string {
  switch (op) {
    case "auth": {
      const token = String(body.user_token);
      const userId = userIdHint(token);
      return userId === undefined ? `token:${token}` : playerKey(userId);
    }
    case "balance":
      return body.user_id === undefined
        ? `session:${String(body.session_token)}`
        : playerKey(String(body.user_id));
    case "withdraw":
    case "deposit":
      return body.action === "CLOSE_ROUND"
        ? roundKey(String(body.action_id))
        : playerKey(String(body.user_id));
    case "adjust":
      return playerKey(String(body.user_id));
  }
}
