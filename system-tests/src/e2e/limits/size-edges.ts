import { limits } from "@wallet/contracts/limits";
import { bytesOf, type Width } from "@wallet/contracts/testing/limit-strings";
import { expect } from "vitest";
import { bet, close, misaligned, ok, placed } from "./callbacks.ts";
import type { Drive, Edges } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, paddedTo, pathOf } from "./edge-world.ts";

/** The sizes this system runs with (the limits' settings: `BODY_LIMIT_BYTES`, `CLOSE_ROUND_BODY_LIMIT_BYTES`). */
export interface Sizes {
  callbackBody: number;
  closeBody: number;
}

const fill = (width: Width) => (bytes: number) => bytesOf(width, bytes);

/** A callback's body: exactly the limit taken (200), a byte more refused (413) before it is read. */
export function callbackBodyEdges(world: EdgeWorld, sizes: Sizes): Edges<Width> {
  const sized = async (width: Width, bytes: number) => {
    const someone = await world.someone();
    const body = bet(someone);
    return world.callback("/withdraw", body, paddedTo(body, bytes, fill(width)));
  };
  return {
    taken: async (width) => {
      expect((await sized(width, sizes.callbackBody)).status).toBe(200);
    },
    refusals: [
      {
        entry: "/withdraw BET body",
        answer: { status: 413, message: `body larger than ${sizes.callbackBody} bytes` },
        send: async (width) => answerOf(await sized(width, sizes.callbackBody + 1)),
      },
    ],
  };
}

/** A close's body, the platform's and the manual one: exactly the limit applied, a byte more a 413. */
export function closeBodyEdges(world: EdgeWorld, sizes: Sizes): Edges<Width> {
  const platform = async (width: Width, bytes: number) => {
    const round = freshId("round");
    const body = close(round);
    return world.callback("/deposit", body, paddedTo(body, bytes, fill(width)));
  };
  const byHand = async (width: Width, bytes: number) => {
    const round = freshId("round");
    const body = { crashGameCashOutCoefficients: [0], crashGameBets: [1_000], game: "crashGame" };
    return world.operator(
      "POST",
      pathOf("/v1/rounds/{}/close", round),
      undefined,
      paddedTo(body, bytes, fill(width)),
    );
  };
  return {
    taken: async (width) => {
      expect((await platform(width, sizes.closeBody)).status).toBe(200);
      expect((await byHand(width, sizes.closeBody)).status).toBe(200);
    },
    refusals: [
      {
        entry: "/deposit CLOSE_ROUND body",
        answer: { status: 413, message: `body larger than ${sizes.closeBody} bytes` },
        send: async (width) => answerOf(await platform(width, sizes.closeBody + 1)),
      },
      {
        entry: "POST /v1/rounds/{round_id}/close body",
        answer: { status: 413, message: `body too large: this route takes at most ${sizes.closeBody} bytes` },
        send: async (width) => answerOf(await byHand(width, sizes.closeBody + 1)),
      },
    ],
  };
}

/**
 * The largest close read whole (64 KiB): at it and a byte past it (read as a stream by the close
 * intake) the same close is applied alike. A threshold, not a refusal.
 */
export function closeInlineEdges(world: EdgeWorld): Edges<Width> {
  return {
    taken: async (width) => {
      for (const bytes of [limits.closeInline.max, limits.closeInline.max + 1]) {
        const round = freshId("round");
        await placed(world, await world.someone(), { action_id: round });
        const body = close(round);
        expect(await ok(world, "/deposit", body, paddedTo(body, bytes, fill(width)))).toMatchObject({
          provider_tx_id: body.provider_tx_id,
        });
      }
    },
    refusals: [],
  };
}

/** An operator API body (but the manual close's): exactly 64 KiB taken, a byte more a 413. */
export function operatorApiBodyEdges(world: EdgeWorld): Edges<Width> {
  const create = (width: Width, bytes: number) => {
    const body = { username: "sized", currency: "EUR", balance: 0, maxbet: 1_000 };
    return world.operator("POST", "/v1/players", undefined, paddedTo(body, bytes, fill(width)));
  };
  return {
    taken: async (width) => {
      expect((await create(width, limits.operatorApiBody.max)).status).toBe(201);
    },
    refusals: [
      {
        entry: "POST /v1/players body",
        answer: {
          status: 413,
          message: `body too large: this route takes at most ${limits.operatorApiBody.max} bytes`,
        },
        send: async (width) => answerOf(await create(width, limits.operatorApiBody.max + 1)),
      },
    ],
  };
}

/**
 * What a refused close read as a stream keeps of its body in its row: its first 65,536 UTF-16 units,
 * or one fewer where that would cut a character in two; the whole body stays in its pieces.
 */
export function previewEdges(world: EdgeWorld): Edges<Width> {
  return {
    taken: async (width) => {
      const body = misaligned(freshId("round"));
      const raw = paddedTo(body, 300_000, fill(width));
      expect((await world.callback("/deposit", body, raw)).status).toBe(400);
      const row = await world.refusedClose((candidate) => raw.startsWith(String(candidate.body)));
      const preview = String(row.body);
      expect({ complete: row.body_complete, bytes: row.body_bytes, whole: preview.isWellFormed() }).toEqual({
        complete: false,
        bytes: Buffer.byteLength(raw),
        whole: true,
      });
      expect(limits.refusedBodyPreview.max - preview.length).toBeLessThanOrEqual(1);
      // The whole body, byte for byte.
      expect(await world.refusedBody(Number(row.id))).toEqual(Buffer.from(raw));
    },
    refusals: [],
  };
}

/** The sizes: each width filling a body to its limit and a byte past it. */
export const sizeDrives = (world: EdgeWorld, sizes: Sizes): Drive[] => [
  { limit: "callbackBody", by: "width", edges: callbackBodyEdges(world, sizes) },
  { limit: "closeBody", by: "width", edges: closeBodyEdges(world, sizes) },
  { limit: "closeInline", by: "width", edges: closeInlineEdges(world) },
  { limit: "operatorApiBody", by: "width", edges: operatorApiBodyEdges(world) },
  { limit: "refusedBodyPreview", by: "width", edges: previewEdges(world) },
];
