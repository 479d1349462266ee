import type { SeenAnswer } from "@wallet/platform-sim/engine/stats";
import type { Operation, OperationKind } from "./operation.ts";

const kinds: Record<string, OperationKind> = {
  "/auth": "auth",
  "/balance": "balance",
  BET: "BET",
  FREE_BET: "FREE_BET",
  WIN: "WIN",
  FREE_BET_WIN: "FREE_BET_WIN",
  ROLL_BACK: "ROLL_BACK",
  CLOSE_ROUND: "CLOSE_ROUND",
};

/**
 * A callback as the platform saw it (the simulator's record, after its resends) as an operation of
 * the history. `/auth` names no `user_id` in its body: its player is the one its 200 reply names.
 */
export function platformOperation(answer: SeenAnswer): Omit<Operation, "id"> {
  const kind = kinds[answer.label];
  if (!kind) throw new Error(`no operation for the platform's ${answer.label}`);
  return {
    source: "platform",
    kind,
    operatorId: answer.operatorId,
    userId: answer.userId ?? (kind === "auth" ? authUser(answer.reply) : null),
    roundId: answer.roundId,
    key: answer.providerTxId,
    betKey: answer.settles,
    amount: answer.amount,
    method: "POST",
    path: answer.path,
    request: answer.request,
    invokedAt: answer.invokedAt,
    completedAt: answer.status === 0 ? null : answer.answeredAt,
    status: answer.status,
    reply: answer.reply,
    balance: answer.balance ?? refusedBalance(answer),
    attempts: answer.attempts,
  };
}

/** A 402 to a BET carries the balance as it stood (`data.balance`): it pins the checker's model state. */
function refusedBalance(answer: SeenAnswer): number | null {
  if (answer.status !== 402) return null;
  try {
    const balance = (JSON.parse(answer.reply) as { data?: { balance?: unknown } }).data?.balance;
    return typeof balance === "number" ? balance : null;
  } catch {
    return null;
  }
}

function authUser(reply: string): string | null {
  try {
    const userId = (JSON.parse(reply) as { data?: { user_id?: unknown } }).data?.user_id;
    return userId === undefined ? null : String(userId);
  } catch {
    return null;
  }
}

/** Every operation of a campaign, numbered in invocation order. */
export function joinHistory(...parts: Array<Omit<Operation, "id">[]>): Operation[] {
  return parts
    .flat()
    .sort((a, b) => a.invokedAt - b.invokedAt)
    .map((op, id) => ({ ...op, id }));
}
