import { randomUUID } from "node:crypto";
import type { SeededPlayer } from "../../seed.ts";

/** The token the operator API is started with, and so the bearer every request carries. */
export const operatorToken = "scaling-operator-token";

export const operatorHeaders = {
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
