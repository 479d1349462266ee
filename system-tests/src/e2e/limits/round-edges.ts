import { expect } from "vitest";
import { close, freeBet, large, misaligned, ok, placed, settle } from "./callbacks.ts";
import type { Drive, Edges } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, pathOf } from "./edge-world.ts";
import { perBet, refusedCloses } from "./id-edges.ts";

/** A manual close of `round` with one stake of 1,000 lost: answered 200 for that round. */
export async function closedByHand(world: EdgeWorld, round: string, body: Record<string, unknown> = {}) {
  const answer = await world.manualClose(round, body);
  expect(answer).toMatchObject({ status: 200, json: { round_id: round, replayed: false } });
  return answer.json;
}

/** A refused close stored with `round`, found by the body it was sent as. */
async function storedWith(world: EdgeWorld, raw: string, round: string) {
  const row = await world.refusedClose((candidate) => raw.startsWith(String(candidate.body)));
  expect(row).toMatchObject({ round_id: round, resolved_at: null });
}

/**
 * A round id at its limit: played by every per-bet action, listed, its close refused and stored WITH
 * its round (whole and streamed), and that refusal resolved by the manual close of the round; a valid
 * streamed close of another such round applied.
 */
export function roundIdEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (round, fresh) => {
      const player = await world.player();
      await world.grantFreeBets(player);
      const stake = await placed(world, player, { action_id: round, amount: 1_000 });
      const free = freeBet(player, { action_id: round });
      await ok(world, "/withdraw", free);
      const voided = await placed(world, player, { action_id: round, amount: 700 });
      await ok(world, "/deposit", settle(player, stake, "WIN", { amount: 0 }));
      await ok(world, "/deposit", settle(player, free, "FREE_BET_WIN", { amount: 500 }));
      await ok(world, "/deposit", settle(player, voided, "ROLL_BACK"));
      expect(await world.operator("GET", pathOf("/v1/rounds/{}", round))).toMatchObject({
        status: 200,
        json: { round_id: round, status: "open", game: "crashGame" },
      });
      // Its close refused (misaligned): stored with its round; the manual close resolves it.
      const refused = misaligned(round);
      expect((await world.callback("/deposit", refused)).status).toBe(400);
      await storedWith(world, JSON.stringify(refused), round);
      expect(await closedByHand(world, round)).toMatchObject({ refused_closes_resolved: 1 });
      expect((await world.operator("GET", pathOf("/v1/rounds/{}", round))).json.status).toBe("closed");

      // Streamed: a valid close of another round at the limit, and a refused one resolved by hand.
      const streamed = fresh();
      await placed(world, player, { action_id: streamed });
      const body = close(streamed);
      expect(await ok(world, "/deposit", body, large(body))).toMatchObject({
        provider_tx_id: body.provider_tx_id,
      });
      expect((await world.operator("GET", pathOf("/v1/rounds/{}", streamed))).json.status).toBe("closed");
      const another = fresh();
      const raw = large(misaligned(another));
      expect((await world.callback("/deposit", undefined, raw)).status).toBe(400);
      await storedWith(world, raw, another);
      expect(await closedByHand(world, another)).toMatchObject({ refused_closes_resolved: 1 });
    },
    refusals: [
      ...perBet(world, "action_id", (round) => ({ action_id: round })),
      // Stored without a round (none any entry point takes), with its key, which is within its own limit.
      ...refusedCloses(world, "action_id", (_id, round) => ({
        round_id: null,
        provider_tx_id: `${round}-1-close-round`,
      })),
      {
        entry: "GET /v1/rounds/{round_id}",
        field: "round_id",
        send: async (round) => answerOf(await world.operator("GET", pathOf("/v1/rounds/{}", round))),
      },
      {
        entry: "POST /v1/rounds/{round_id}/close",
        field: "round_id",
        send: async (round) => answerOf(await world.manualClose(round)),
      },
    ],
  };
}

/**
 * A close key at its limit: the close applied under it (whole and streamed), a refused one stored
 * with it. One past it: refused, stored with its round and no key, and resolved by the manual close.
 */
export function closeTxIdEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (key, fresh) => {
      const player = await world.player();
      for (const streamed of [false, true]) {
        const round = freshId("round");
        await placed(world, player, { action_id: round });
        const body = close(round, { provider_tx_id: streamed ? fresh() : key });
        const data = await ok(world, "/deposit", body, streamed ? large(body) : undefined);
        expect(data).toMatchObject({ provider_tx_id: body.provider_tx_id });
      }
      const round = freshId("round");
      const refused = misaligned(round, { provider_tx_id: fresh() });
      expect((await world.callback("/deposit", refused)).status).toBe(400);
      const row = await world.refusedClose((candidate) => candidate.body === JSON.stringify(refused));
      expect(row).toMatchObject({ round_id: round, provider_tx_id: refused.provider_tx_id });
    },
    // Kept with its round: the manual close of that round resolves it.
    refusals: refusedCloses(
      world,
      "provider_tx_id",
      (_key, round) => ({ round_id: round, provider_tx_id: null }),
      async (row) => {
        expect(await closedByHand(world, String(row.round_id))).toMatchObject({ refused_closes_resolved: 1 });
      },
    ),
  };
}

/** A round's id and its close's key. */
export const roundDrives = (world: EdgeWorld): Drive[] => [
  { limit: "roundId", by: "code points", edges: roundIdEdges(world) },
  { limit: "closeTxId", by: "code points", edges: closeTxIdEdges(world) },
];
