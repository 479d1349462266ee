import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SimStats } from "./engine/stats.ts";
import { CONTRACT_MAX_ATTEMPTS } from "./retry-limits.ts";
import { retryDelayMs, sendCallback } from "./wallet-client.ts";

let server: Server;
let url = "";
/** Scripted answers, in order: a status (-1 never answers), or a status with the envelope's `data`. */
let answers: Array<number | { status: number; data: Record<string, unknown> }> = [];
const seen: Array<{ at: number; signature: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ at: Date.now(), signature: req.headers["x-signature"] as string | undefined, body });
      const next = answers.shift() ?? 200;
      const { status, data } = typeof next === "number" ? { status: next, data: undefined } : next;
      if (status === -1) return; // never answer: the client times out
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: status, message: "scripted", data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answers = [];
  seen.length = 0;
});

const operator = () => ({ operatorId: 1, publicKey: "pk", secretKey: "secret-key-1", walletUrl: url });
// The timeout is generous so a slow answer on a busy machine is not mistaken for the hanging one.
const policy = { baseMs: 40, maxMs: 100, jitterMs: 10, maxAttempts: 5, timeoutMs: 400 };

describe("the simulator's retry policy (contract: 5xx, timeouts and connection errors only)", () => {
  it("retries 5xx and timeouts with the same bytes and signature, backing off exponentially up to the cap", async () => {
    answers = [503, -1, 500, 200];
    const stats = new SimStats();
    const answer = await sendCallback(operator(), "withdraw", { a: 1 }, policy, stats, "BET");
    expect([answer.status, answer.attempts]).toEqual([200, 4]);
    expect(new Set(seen.map((request) => `${request.signature}|${request.body}`)).size).toBe(1);
    const gaps = seen.slice(1).map((request, index) => request.at - (seen[index]?.at ?? 0));
    // At least 40 ms, then a timeout (400 ms) plus 80 ms, then 100 ms: lower bounds only, a busy machine adds.
    expect(gaps[0]).toBeGreaterThanOrEqual(40);
    expect(gaps[1]).toBeGreaterThanOrEqual(400 + 80);
    expect(gaps[2]).toBeGreaterThanOrEqual(100);
    expect(stats.retries).toBe(3);
  });

  it("doubles the pause from baseMs, caps it at maxMs, and adds at most jitterMs", () => {
    const none = () => 0;
    const most = () => 0.999;
    expect([2, 3, 4, 5, 6].map((attempt) => retryDelayMs(policy, attempt, none))).toEqual([
      40, 80, 100, 100, 100,
    ]);
    expect(retryDelayMs(policy, 4, most)).toBeCloseTo(109.99, 2);
    // The contract's own policy: 5 s, 10 s, 20 s, … never more than 120 s.
    const contract = { baseMs: 5_000, maxMs: 120_000, jitterMs: 0, maxAttempts: 10, timeoutMs: 5_000 };
    expect([2, 3, 4, 7, 8, 9].map((attempt) => retryDelayMs(contract, attempt, none))).toEqual([
      5_000, 10_000, 20_000, 120_000, 120_000, 120_000,
    ]);
  });

  it("never retries a 4xx", async () => {
    for (const status of [400, 401, 402, 404, 409]) {
      seen.length = 0;
      answers = [status];
      const answer = await sendCallback(operator(), "deposit", { a: status }, policy, new SimStats(), "WIN");
      expect([answer.status, answer.attempts, seen.length]).toEqual([status, 1, 1]);
    }
  });

  it("sends a callback the contract's 5 times in all, the first included, to a wallet that only answers 503", async () => {
    answers = Array(20).fill(503);
    const stats = new SimStats();
    const answer = await sendCallback(
      operator(),
      "deposit",
      {},
      { ...policy, maxAttempts: CONTRACT_MAX_ATTEMPTS },
      stats,
      "WIN",
    );
    // Limits, "Retry maximum attempts: 5" (docs/contract-decisions.md): the first delivery and 4 resends.
    expect([answer.status, answer.attempts, seen.length, stats.retries]).toEqual([503, 5, 5, 4]);
    expect(stats.gaveUp).toBe(1);
  });

  it("gives up after the configured attempts", async () => {
    answers = Array(20).fill(503);
    const answer = await sendCallback(
      operator(),
      "deposit",
      {},
      { ...policy, maxAttempts: 3 },
      new SimStats(),
      "WIN",
    );
    expect([answer.status, answer.attempts, seen.length]).toEqual([503, 3, 3]);
  });

  it("treats a refused connection as transient", async () => {
    const closed = { ...operator(), walletUrl: "http://127.0.0.1:9" };
    const answer = await sendCallback(
      closed,
      "auth",
      {},
      { ...policy, maxAttempts: 2 },
      new SimStats(),
      "/auth",
    );
    expect([answer.status, answer.attempts]).toEqual([0, 2]);
  });
});

describe("what the platform saw (SimStats.answers and gaveUp)", () => {
  const bet = { provider_tx_id: "tx-1", user_id: "u-1", amount: 500, action: "BET" };
  const acknowledged = {
    status: 200,
    data: {
      user_id: "u-1",
      operator_tx_id: "op-9",
      provider_tx_id: "tx-1",
      new_balance: 9_500,
      currency: "EUR",
    },
  };

  it("logs a 200 with the callback's ids and amount, the wallet's transaction id and balance, the bytes both ways", async () => {
    answers = [acknowledged];
    const stats = new SimStats();
    const before = Date.now();
    await sendCallback(operator(), "withdraw", { ...bet, action_id: "round-1" }, policy, stats, "BET");
    expect(stats.answers).toEqual([
      {
        label: "BET",
        operatorId: 1,
        providerTxId: "tx-1",
        userId: "u-1",
        amount: 500,
        status: 200,
        attempts: 1,
        operatorTxId: "op-9",
        balance: 9_500,
        roundId: "round-1",
        // What a resend after a failover must send again, and be answered again, byte for byte.
        path: "/withdraw",
        request: JSON.stringify({ ...bet, action_id: "round-1" }),
        reply: JSON.stringify({ code: 200, message: "scripted", data: acknowledged.data }),
        invokedAt: expect.any(Number),
        answeredAt: expect.any(Number),
        settles: null,
      },
    ]);
    expect(stats.answers[0]?.invokedAt).toBeGreaterThanOrEqual(before);
    expect(stats.answers[0]?.answeredAt).toBeGreaterThanOrEqual(stats.answers[0]?.invokedAt ?? Number.NaN);
    expect(stats.gaveUp).toBe(0);
  });

  it("reads each reply by its operation's schema: /auth's balance, /balance's amount, a close's ids", async () => {
    answers = [{ status: 200, data: { operator_tx_id: "op-7", provider_tx_id: "tx-1" } }];
    answers.push({
      status: 200,
      data: { user_id: "u-1", username: "u", balance: 10_000, currency: "EUR", maxbet: 5_000 },
    });
    answers.push({ status: 200, data: { user_id: "u-1", currency: "EUR", amount: 7_000 } });
    const stats = new SimStats();
    await sendCallback(operator(), "deposit", bet, policy, stats, "CLOSE_ROUND");
    await sendCallback(operator(), "auth", { user_token: "t" }, policy, stats, "/auth");
    await sendCallback(operator(), "balance", { user_id: "u-1" }, policy, stats, "/balance");
    expect(stats.answers.map((seen) => [seen.operatorTxId, seen.balance, seen.providerTxId])).toEqual([
      ["op-7", null, "tx-1"],
      [null, 10_000, null],
      [null, 7_000, null],
    ]);
    expect(stats.malformedReplies).toBe(0);
  });

  it("counts a 200 that does not fit its schema as malformed, and takes nothing from it", async () => {
    answers = [{ status: 200, data: { user_id: "u-1", operator_tx_id: "op-9" } }];
    const stats = new SimStats();
    const answer = await sendCallback(operator(), "withdraw", bet, policy, stats, "BET");
    expect(answer.malformed).toMatch(/new_balance|provider_tx_id|currency/);
    expect(stats.answers[0]).toMatchObject({ status: 200, operatorTxId: null, balance: null });
    expect(stats.malformedReplies).toBe(1);
  });

  it("logs a retried callback once, with its final status and attempt count", async () => {
    answers = [503, acknowledged];
    const stats = new SimStats();
    await sendCallback(operator(), "withdraw", bet, policy, stats, "BET");
    expect(stats.answers).toHaveLength(1);
    expect(stats.answers[0]).toMatchObject({
      status: 200,
      attempts: 2,
      operatorTxId: "op-9",
      balance: 9_500,
    });
    expect([stats.gaveUp, stats.retries]).toEqual([0, 1]);
  });

  it("counts a callback that only ever got 503 as given up, logged with status 503", async () => {
    answers = [503, 503, 503, 503, 503];
    const stats = new SimStats();
    await sendCallback(operator(), "deposit", bet, policy, stats, "WIN");
    expect(stats.answers).toEqual([
      expect.objectContaining({ status: 503, attempts: 5, operatorTxId: null }),
    ]);
    expect(stats.gaveUp).toBe(1);
    expect(stats.toJSON().gaveUp).toBe(1);
  });

  it("counts no answer at all (status 0) as given up", async () => {
    const closed = { ...operator(), walletUrl: "http://127.0.0.1:9" };
    const stats = new SimStats();
    await sendCallback(closed, "deposit", bet, { ...policy, maxAttempts: 2 }, stats, "WIN");
    expect(stats.answers).toEqual([expect.objectContaining({ status: 0, attempts: 2 })]);
    expect(stats.gaveUp).toBe(1);
  });

  it("logs a 402 as final, without ids or balance, and not as given up", async () => {
    answers = [{ status: 402, data: { new_balance: 1 } }];
    const stats = new SimStats();
    await sendCallback(operator(), "withdraw", bet, policy, stats, "BET");
    expect(stats.answers).toEqual([
      expect.objectContaining({ status: 402, attempts: 1, operatorTxId: null, balance: null }),
    ]);
    expect(stats.gaveUp).toBe(0);
  });
});
