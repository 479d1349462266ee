import { randomUUID } from "node:crypto";
import { betBody, closeBody, settleBody, signedHeaders } from "../load/bodies.ts";
import { httpPoster } from "../load/http-client.ts";
import { benchTenant } from "../product.ts";
import type { SeededPlayer } from "../seed.ts";

// Signed callbacks for the phases that send their own (the same bodies as the load process's
// workload): one verb at a time (serial) or rounds on one partition (partition), which the load
// process's random mix cannot do.

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
    const answer = await client.post(route, raw, signedHeaders(raw, benchTenant));
    const ended = performance.now();
    return { ...answer, ms: ended - started, ended };
  };
  return { send, close: client.close };
}
type Send = ReturnType<typeof signedSender>["send"];

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
  record("WIN", await send("/deposit", settleBody(player, roundId, betId, stake * 2)));
  record("CLOSE_ROUND", await send("/deposit", closeBody(roundId, stake, 2)));
}
