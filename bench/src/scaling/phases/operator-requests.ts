import { randomUUID } from "node:crypto";
import type { SeededPlayer } from "../../seed.ts";
import type { Meter } from "../counters.ts";
import { describeWindow } from "../window.ts";

/** The token the operator API is started with, and so the bearer every request carries. */
export const operatorToken = "scaling-operator-token";

const operatorHeaders = {
  authorization: `Bearer ${operatorToken}`,
  "content-type": "application/json",
};

/** Cycles through a list by index: requests spread over players and rounds, the same on every run. */
export const pick = <T>(list: T[], index: number) => list[index % list.length] as T;

export type OperatorRequest = (index: number) => { method: string; path: string; body?: string };

/**
 * The operator API's reads the document sizes, plus an adjustment (a write that goes through the
 * ledger partition like a callback), each as the `index`-th request of a series.
 */
export function operatorRequests(
  players: SeededPlayer[],
  closedRounds: Array<{ roundId: string }>,
  tournamentId: number,
): Record<string, OperatorRequest> {
  return {
    "GET /v1/players/:user_id": (i) => ({
      method: "GET",
      path: `/v1/players/${pick(players, i * 7).userId}`,
    }),
    "GET /v1/players/:user_id/transactions?limit=50": (i) => ({
      method: "GET",
      path: `/v1/players/${pick(players, i * 7).userId}/transactions?limit=50`,
    }),
    "GET /v1/rounds/:round_id": (i) => ({
      method: "GET",
      path: `/v1/rounds/${pick(closedRounds, i).roundId}`,
    }),
    "GET /v1/tournaments/:id/leaderboard": () => ({
      method: "GET",
      path: `/v1/tournaments/${tournamentId}/leaderboard`,
    }),
    "POST /v1/players/:user_id/adjustments (through the partition)": (i) => ({
      method: "POST",
      path: `/v1/players/${pick(players, i * 7).userId}/adjustments`,
      body: JSON.stringify({
        amount: 1_000,
        reason: "scaling study",
        reference: `scaling-${randomUUID()}`,
      }),
    }),
  };
}

/** `count` requests of a series one after another, metered: their times, statuses and the window. */
export async function meteredRequests(
  meter: Meter,
  operatorUrl: string,
  request: OperatorRequest,
  count: number,
) {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const before = await meter.snap();
  for (let i = 0; i < count; i++) {
    const { method, path, body } = request(i);
    const started = performance.now();
    const response = await fetch(`${operatorUrl}${path}`, { method, headers: operatorHeaders, body });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return { times, statuses, window: describeWindow(before, await meter.snap(), count) };
}

/** Ten unmeasured requests of a series (other players and rounds), so its window holds no cold start. */
export async function warmUp(operatorUrl: string, request: OperatorRequest): Promise<void> {
  for (let warm = 0; warm < 10; warm++) {
    const { method, path, body } = request(warm + 1000);
    await fetch(`${operatorUrl}${path}`, { method, headers: operatorHeaders, body });
  }
}
