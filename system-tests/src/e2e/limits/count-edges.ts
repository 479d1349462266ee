import { limits } from "@wallet/contracts/limits";
import { expect } from "vitest";
import { bet, close } from "./callbacks.ts";
import type { Drive, Edges } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, type Player, pathOf } from "./edge-world.ts";

const { max } = limits.millis;
const nested = (levels: number) => JSON.parse(`${"[".repeat(levels - 1)}1${"]".repeat(levels - 1)}`);
const keyed = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 0]));

/** A count or page size of one entry point, at its maximum and one past it. */
export function countEdges(
  entry: string,
  message: string,
  send: (value: number) => Promise<{ status: number; json: Record<string, unknown> }>,
): Edges<number> {
  return {
    taken: async (value) => {
      const answer = await send(value);
      expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(300);
    },
    refusals: [
      { entry, answer: { status: 400, message }, send: async (value) => answerOf(await send(value)) },
    ],
  };
}

export const freeBetCountEdges = (world: EdgeWorld) =>
  countEdges("POST /v1/players/{user_id}/free-bets count", "count: must be at most 1000", async (count) =>
    world.operator("POST", pathOf("/v1/players/{}/free-bets", (await world.someone()).userId), { count }),
  );

export const pageEdges = (world: EdgeWorld, path: (someone: Player) => string, max: number) =>
  countEdges(
    `GET ${path({ userId: "{user_id}" } as Player)} limit`,
    `limit: must be an integer from 1 to ${max}`,
    async (limit) => world.operator("GET", `${path(await world.someone())}?limit=${limit}`),
  );

/** An operator id named in the query: the largest is taken (and is no operator here), one more refused. */
export function operatorIdEdges(world: EdgeWorld): Edges<number> {
  const named = async (operatorId: number) => {
    const response = await fetch(`http://127.0.0.1:${world.api.port}/v1/audit?operatorId=${operatorId}`, {
      headers: { authorization: "Bearer test-operator-token" },
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return {
    taken: async (operatorId) => {
      expect(await named(operatorId)).toEqual({
        status: 400,
        json: { code: 400, message: `operatorId: ${operatorId} is not configured` },
      });
    },
    refusals: [
      {
        entry: "?operatorId=",
        answer: { status: 400, message: "operatorId: must be a positive integer" },
        send: async (operatorId) => answerOf(await named(operatorId)),
      },
    ],
  };
}

/** A BET carrying `shape` in a field no rule reads: the body's nesting or an object's keys. */
export function shapeEdges(
  world: EdgeWorld,
  entry: string,
  message: string,
  shape: (size: number) => unknown,
): Edges<number> {
  const send = async (size: number) =>
    world.callback("/withdraw", bet(await world.someone(), { padding: shape(size) }));
  return {
    taken: async (size) => {
      expect((await send(size)).status).toBe(200);
    },
    refusals: [
      {
        entry: `/withdraw BET ${entry}`,
        answer: { status: 400, message },
        send: async (size) => answerOf(await send(size)),
      },
      {
        entry: `/deposit CLOSE_ROUND ${entry} (stored as refused, malformed_body)`,
        answer: { status: 400, message },
        send: async (size) =>
          answerOf(await world.callback("/deposit", close(freshId("round"), { padding: shape(size) }))),
      },
    ],
  };
}

/** A BET's `attributes` list: the most entries taken, one more refused. */
export const attributesEdges = (world: EdgeWorld) =>
  countEdges("/withdraw BET attributes", "attributes: at most 64 attributes", async (count) => {
    const attributes = Array.from({ length: count }, (_, index) => ({ name: `a${index}`, value: "1" }));
    const answer = await world.callback("/withdraw", bet(await world.someone(), { attributes }));
    return { status: answer.status, json: answer.json };
  });

/** The limits on counts: grants, pages, an operator id, a body's shape, a BET's attributes. */
export const countDrives = (world: EdgeWorld): Drive[] => [
  { limit: "freeBetCount", by: "value", at: [1_000, 1_001], edges: freeBetCountEdges(world) },
  { limit: "operatorId", by: "value", at: [max, max + 1], edges: operatorIdEdges(world) },
  {
    limit: "transactionsPage",
    by: "value",
    at: [200, 201],
    edges: pageEdges(world, (someone) => pathOf("/v1/players/{}/transactions", someone.userId), 200),
  },
  {
    limit: "refusedClosesPage",
    by: "value",
    at: [200, 201],
    edges: pageEdges(world, () => "/v1/refused-closes", 200),
  },
  { limit: "auditPage", by: "value", at: [500, 501], edges: pageEdges(world, () => "/v1/audit", 500) },
  {
    limit: "jsonDepth",
    by: "value",
    at: [64, 65],
    edges: shapeEdges(world, "nesting", "JSON nested deeper than 64 levels", nested),
  },
  {
    limit: "jsonObjectKeys",
    by: "value",
    at: [1_000, 1_001],
    edges: shapeEdges(world, "keys of an object", "an object holds more than 1000 keys", keyed),
  },
  { limit: "attributes", by: "value", at: [64, 65], edges: attributesEdges(world) },
];
