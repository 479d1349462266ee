import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { describe, expect, it } from "vitest";
import type { AppProcess } from "../harness/processes/app-process.ts";
import { authedPlayer, callGateway, type TestSystem, testTenants } from "../harness/system.ts";

/** A running system to play the flows against: `gateway` may hand out a different gateway on each read. */
export interface RunningGateways {
  system: TestSystem;
  readonly gateway: AppProcess;
  /** Workers the gateways' `/readyz` should count. */
  workers: number;
}

/**
 * The end-to-end callback suite: every verb and status over signed HTTP, against a running system.
 * `callback-flows.int.test.ts` runs it on one gateway and one worker; the Redis Cluster test runs it
 * on two gateways and three workers over a three-master cluster. The gateway must answer 413 above
 * 4096 bytes (`BODY_LIMIT_BYTES`).
 */
export function callbackFlows(running: RunningGateways): void {
  const system = running.system;

  describe("the classic flow over signed HTTP", () => {
    it("auth, bet, win and balance answer the envelope with the HTTP status equal to its code", async () => {
      const player = await authedPlayer(system, running.gateway, { balance: 50_000n });
      expect(player.auth.json).toEqual({
        code: 200,
        message: "OK",
        data: {
          user_id: player.userId,
          username: "e2e",
          balance: 50_000,
          currency: "EUR",
          maxbet: 1_000_000,
        },
      });
      const bet = betBody(player, { amount: 5_000 });
      const placed = await callGateway(running.gateway, "/withdraw", bet);
      expect(placed.status).toBe(200);
      expect(placed.json.data).toMatchObject({
        provider_tx_id: bet.provider_tx_id,
        new_balance: 45_000,
        currency: "EUR",
      });
      const win = await callGateway(
        running.gateway,
        "/deposit",
        settleBody(player, bet, "WIN", { amount: 12_000 }),
      );
      expect(win.json.data?.new_balance).toBe(57_000);
      const balance = await callGateway(running.gateway, "/balance", {
        user_id: player.userId,
        currency: "EUR",
      });
      expect(balance.json).toEqual({
        code: 200,
        message: "OK",
        data: { user_id: player.userId, currency: "EUR", amount: 57_000 },
      });
      expect(await balanceOf(system.ledger, player.playerId)).toBe(57_000n);
      expect((await journalOf(system.ledger, player.playerId)).map((row) => [row.kind, row.amount])).toEqual([
        ["OPENING", 50_000n],
        ["BET", -5_000n],
        ["WIN", 12_000n],
      ]);
    });
  });

  describe("the server-driven flow over signed HTTP", () => {
    it("bets, a WIN and a ROLL_BACK, then one CLOSE_ROUND with the round's arrays", async () => {
      const alice = await authedPlayer(system, running.gateway, { balance: 10_000n });
      const bob = await authedPlayer(system, running.gateway, { balance: 10_000n });
      const round = "crash-round-e2e";
      const aliceBet = betBody(alice, { amount: 2_000, action_id: round });
      const bobBet = betBody(bob, { amount: 3_000, action_id: round });
      expect((await callGateway(running.gateway, "/withdraw", aliceBet)).status).toBe(200);
      expect((await callGateway(running.gateway, "/withdraw", bobBet)).status).toBe(200);
      const cashout = await callGateway(
        running.gateway,
        "/deposit",
        settleBody(alice, aliceBet, "WIN", {
          amount: 4_600,
          attributes: [{ name: "coefficient", value: "2.30" }],
        }),
      );
      expect(cashout.json.data?.new_balance).toBe(12_600);
      const voided = await callGateway(running.gateway, "/deposit", settleBody(bob, bobBet, "ROLL_BACK"));
      expect(voided.json.data?.new_balance).toBe(10_000);
      const close = await callGateway(
        running.gateway,
        "/deposit",
        closeRoundBody(round, [2_000, 3_000], [2.3, 0]),
      );
      expect(close.status).toBe(200);
      expect(close.json).toEqual({
        code: 200,
        message: "OK",
        data: { operator_tx_id: expect.any(String), provider_tx_id: `${round}-1-close-round` },
      });
      expect(await balanceOf(system.ledger, alice.playerId)).toBe(12_600n);
      expect(await balanceOf(system.ledger, bob.playerId)).toBe(10_000n);
    });
  });

  describe("every status code", () => {
    it("400 for malformed JSON, a schema violation, duplicate keys and __proto__, with nothing written", async () => {
      const player = await authedPlayer(system, running.gateway);
      const before = await countRows(system.ledger, "idempotency_records");
      const bet = betBody(player);
      const cases: Array<[string, RegExp]> = [
        ["{not json", /not valid JSON/],
        [JSON.stringify({ ...bet, amount: 12.5 }), /amount: must be an integer number of millis, got 12.5/],
        [
          JSON.stringify(bet).replace('"amount":1000', '"amount":9007199254740993'),
          /amount: exceeds 9007199254740991/,
        ],
        [JSON.stringify(bet).replace('"amount":1000', '"amount":1000,"amount":1'), /"amount" appears twice/],
        [JSON.stringify(bet).replace("{", '{"__proto__":{"x":1},'), /"__proto__" is not allowed/],
        [JSON.stringify({ ...bet, action: "WIN" }), /action must be one of BET, FREE_BET/],
      ];
      for (const [raw, message] of cases) {
        const answer = await callGateway(running.gateway, "/withdraw", undefined, { raw });
        expect(answer.status).toBe(400);
        expect(answer.json.code).toBe(400);
        expect(answer.json.message).toMatch(message);
      }
      const invalidUtf8 = Buffer.concat([
        Buffer.from('{"user_id":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      expect(
        (await callGateway(running.gateway, "/balance", undefined, { raw: invalidUtf8 })).json.message,
      ).toBe("body is not valid UTF-8");
      expect(await countRows(system.ledger, "idempotency_records")).toBe(before);
      expect(await balanceOf(system.ledger, player.playerId)).toBe(100_000n);
    });

    it("401 for an unknown public key, 402 for short funds, 404 for unknown user, 409 for a conflicting retry", async () => {
      const player = await authedPlayer(system, running.gateway, { balance: 1_000n });
      const bet = betBody(player, { amount: 500 });
      expect(
        (await callGateway(running.gateway, "/withdraw", bet, { publicKey: "who-is-this" })).json,
      ).toEqual({
        code: 401,
        message: "unknown or missing X-Public-Key",
      });
      const short = await callGateway(running.gateway, "/withdraw", betBody(player, { amount: 5_000 }));
      expect([short.status, short.json.code, short.json.data?.balance]).toEqual([402, 402, 1_000]);
      const unknown = await callGateway(running.gateway, "/withdraw", betBody(player, { user_id: "ghost" }));
      expect([unknown.status, unknown.json.message]).toEqual([404, "user ghost not found"]);
      const first = await callGateway(running.gateway, "/withdraw", bet);
      const conflict = await callGateway(running.gateway, "/withdraw", { ...bet, amount: 501 });
      expect(conflict.status).toBe(409);
      expect(conflict.json.data).toEqual(first.json);
      expect(await balanceOf(system.ledger, player.playerId)).toBe(500n);
    });

    it("an identical retry gets the same bytes and debits once", async () => {
      const player = await authedPlayer(system, running.gateway, { balance: 1_000n });
      const bet = betBody(player, { amount: 300 });
      const first = await callGateway(running.gateway, "/withdraw", bet);
      const retry = await callGateway(running.gateway, "/withdraw", bet);
      expect(retry.status).toBe(200);
      expect(retry.text).toBe(first.text);
      expect(await balanceOf(system.ledger, player.playerId)).toBe(700n);
    });

    it("413 for a body over the limit, before anything is parsed", async () => {
      const answer = await callGateway(running.gateway, "/withdraw", undefined, {
        raw: `{"pad":"${"x".repeat(5_000)}"}`,
      });
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual({ code: 413, message: "body larger than 4096 bytes" });
    });

    it("404 for a path that is not a callback", async () => {
      const answer = await callGateway(running.gateway, "/refund", {});
      expect([answer.status, answer.json.code]).toEqual([404, 404]);
    });

    it("/healthz is alive and /readyz sees Redis, MySQL through a live worker, and the worker count", async () => {
      const health = await fetch(`http://127.0.0.1:${running.gateway.port}/healthz`);
      expect(await health.json()).toEqual({ status: "alive" });
      const ready = await fetch(`http://127.0.0.1:${running.gateway.port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        redis: "ok",
        mysql: "ok",
        workers: running.workers,
      });
    });

    it("tenant isolation: tenant 2's key cannot touch tenant 1's player (404, nothing moves)", async () => {
      const player = await authedPlayer(system, running.gateway, { balance: 1_000n });
      const answer = await callGateway(running.gateway, "/withdraw", betBody(player), {
        tenant: testTenants[1],
      });
      expect(answer.status).toBe(404);
      expect(await balanceOf(system.ledger, player.playerId)).toBe(1_000n);
    });
  });
}
