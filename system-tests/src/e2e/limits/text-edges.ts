import { expect } from "vitest";
import { bet, ok, placed } from "./callbacks.ts";
import type { Drive, Edges } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, pathOf } from "./edge-world.ts";
import { closedByHand } from "./round-edges.ts";

const player = (username: string) => ({ username, currency: "EUR", balance: 1_000, maxbet: 1_000 });

/** A player's name: created with it, and read back byte for byte. */
export function usernameEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (username) => {
      const created = await world.operator("POST", "/v1/players", player(username));
      expect(created).toMatchObject({ status: 201, json: { username } });
      const read = await world.operator("GET", pathOf("/v1/players/{}", String(created.json.user_id)));
      expect(read.json.username).toBe(username);
    },
    refusals: [
      {
        entry: "POST /v1/players username",
        field: "username",
        send: async (username) => answerOf(await world.operator("POST", "/v1/players", player(username))),
      },
    ],
  };
}

/** An adjustment's reason: kept in its answer (and replayed with it). */
export function reasonEdges(world: EdgeWorld): Edges<string> {
  const adjust = async (reason: string) => {
    const someone = await world.someone();
    return world.operator("POST", pathOf("/v1/players/{}/adjustments", someone.userId), {
      amount: 1,
      reason,
      reference: freshId("ref"),
    });
  };
  return {
    taken: async (reason) => {
      expect(await adjust(reason)).toMatchObject({ status: 201, json: { reason } });
    },
    refusals: [
      {
        entry: "POST /v1/players/{user_id}/adjustments reason",
        field: "reason",
        send: async (reason) => answerOf(await adjust(reason)),
      },
    ],
  };
}

/** A manual close's note: in its audit line, as sent. */
export function noteEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (note) => {
      const round = freshId("round");
      await placed(world, await world.someone(), { action_id: round });
      await closedByHand(world, round, { note });
      const { json } = await world.operator("GET", "/v1/audit?limit=5");
      const line = (json.actions as Array<{ subject: string; detail: { request: { note?: string } } }>).find(
        (action) => action.subject === round,
      );
      expect(line?.detail.request.note).toBe(note);
    },
    refusals: [
      {
        entry: "POST /v1/rounds/{round_id}/close note",
        field: "note",
        send: async (note) => answerOf(await world.manualClose(freshId("round"), { note })),
      },
    ],
  };
}

/** A launch with `field` set: what the platform simulator launches. */
function launchEdges(world: EdgeWorld, field: "returnUrl" | "language", answer?: string): Edges<string> {
  const launch = async (value: string) => {
    const someone = await world.someone();
    return world.operator("POST", pathOf("/v1/players/{}/launch", someone.userId), {
      game: "crashGame",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
      [field]: value,
    });
  };
  return {
    taken: async (value) => {
      const launched = await launch(value);
      expect({ status: launched.status, message: launched.json.message }).toEqual({
        status: 200,
        message: undefined,
      });
    },
    refusals: [
      {
        entry: `POST /v1/players/{user_id}/launch ${field}`,
        ...(answer ? { answer: { status: 400, message: answer } } : { field }),
        send: async (value) => answerOf(await launch(value)),
      },
    ],
  };
}

export const returnUrlEdges = (world: EdgeWorld) =>
  launchEdges(world, "returnUrl", "returnUrl: must be at most 2048 bytes of UTF-8");
export const languageEdges = (world: EdgeWorld) => launchEdges(world, "language");

/** An attribute of a BET: its name, or its value (`createDate`, which no rule reads). */
export function attributeEdges(world: EdgeWorld, part: "name" | "value"): Edges<string> {
  const attribute = (value: string) =>
    part === "name" ? { name: value, value: "1" } : { name: "createDate", value };
  return {
    taken: async (value) => {
      const someone = await world.someone();
      await ok(world, "/withdraw", bet(someone, { attributes: [attribute(value)] }));
    },
    refusals: [
      {
        entry: `/withdraw BET attributes.0.${part}`,
        field: `attributes.0.${part}`,
        send: async (value) => {
          const someone = await world.someone();
          return answerOf(
            await world.callback("/withdraw", bet(someone, { attributes: [attribute(value)] })),
          );
        },
      },
    ],
  };
}

/** The operator API's texts and a BET's attributes. */
export const textDrives = (world: EdgeWorld): Drive[] => [
  ...(
    [
      ["username", usernameEdges(world)],
      ["adjustmentReason", reasonEdges(world)],
      ["manualCloseNote", noteEdges(world)],
      ["launchLanguage", languageEdges(world)],
      ["attributeName", attributeEdges(world, "name")],
      ["attributeValue", attributeEdges(world, "value")],
    ] as const
  ).map(([limit, edges]): Drive => ({ limit, by: "code points", edges })),
  { limit: "launchReturnUrl", by: "bytes", edges: returnUrlEdges(world) },
];
