import { randomUUID } from "node:crypto";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, authedPlayer, callGateway, useTestSystem } from "../harness/system.ts";

/**
 * The operator API's settings, on a running process: the addresses it listens on
 * (OPERATOR_API_HOST, METRICS_HOST) and the manual close's body limit (CLOSE_ROUND_BODY_LIMIT_BYTES).
 * A revoked token is refused from the next request on: `operator-token-revocation.int.test.ts`.
 */
const system = useTestSystem();
const host = "127.0.0.2"; // a loopback address of its own: 127.0.0.1 must then find no one
const closeLimit = 4_096;
const envToken = "test-operator-token";
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway();
  api = await system.startOperatorApi({
    OPERATOR_API_HOST: host,
    METRICS_HOST: host,
    CLOSE_ROUND_BODY_LIMIT_BYTES: String(closeLimit),
  });
}, 60_000);

/** A request to the API at its own address; `body` is sent as these exact bytes. */
const send = async (method: string, path: string, body?: string, token = envToken) => {
  const response = await fetch(`http://${host}:${api.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
};
/** `value` as JSON padded with spaces to exactly `bytes` bytes: still the same JSON. */
const jsonOfSize = (value: unknown, bytes: number) => {
  const text = JSON.stringify(value);
  if (text.length > bytes) throw new Error("body larger than asked");
  return `${text}${" ".repeat(bytes - text.length)}`;
};
const reachable = (address: string, port: number | undefined, path: string) =>
  fetch(`http://${address}:${port}${path}`).then(
    (response) => response.status,
    (error: { cause?: { code?: string } }) => error.cause?.code,
  );

describe("bind addresses", () => {
  it("the API and its metrics listen on OPERATOR_API_HOST and METRICS_HOST only, and say so at boot", async () => {
    const ready = api.logs.find((line) => line.includes("operator API listening")) ?? "{}";
    expect(JSON.parse(ready)).toMatchObject({ host, metricsHost: host });
    expect(await reachable(host, api.port, "/healthz")).toBe(200);
    expect(await reachable(host, api.metricsPort, "/metrics")).toBe(200);
    expect(await reachable("127.0.0.1", api.port, "/healthz")).toBe("ECONNREFUSED");
    expect(await reachable("127.0.0.1", api.metricsPort, "/metrics")).toBe("ECONNREFUSED");
  });
});

describe("the manual close's body limit is CLOSE_ROUND_BODY_LIMIT_BYTES", () => {
  it("one byte over is a 413 that says the limit, and nothing is applied; at the limit it is applied", async () => {
    const player = await authedPlayer(system, gateway, { balance: 20_000n });
    const roundId = `round-${randomUUID().slice(0, 8)}`;
    const bet = await callGateway(
      gateway,
      "/withdraw",
      betBody(player, { amount: 1_000, action_id: roundId }),
    );
    expect(bet.status).toBe(200);
    const path = `/v1/rounds/${roundId}/close?operatorId=1`;
    const close = { crashGameCashOutCoefficients: [0], crashGameBets: [1_000], note: "limit test" };

    expect(await send("POST", path, jsonOfSize(close, closeLimit + 1))).toEqual({
      status: 413,
      json: { code: 413, message: `body too large: this route takes at most ${closeLimit} bytes` },
    });
    expect(await countRows(system.ledger, "round_closes", `${roundId}-1-manual`)).toBe(0);
    expect((await send("GET", `/v1/rounds/${roundId}?operatorId=1`)).json.status).toBe("open");

    const applied = await send("POST", path, jsonOfSize(close, closeLimit));
    expect(applied).toMatchObject({ status: 200, json: { round_id: roundId, replayed: false } });
    expect(await countRows(system.ledger, "round_closes", `${roundId}-1-manual`)).toBe(1);
    // Every other route keeps its 64 KiB: a body above the close's limit is read there.
    const player2 = { user_id: `big-${randomUUID()}`, username: "big", currency: "EUR", maxbet: 100 };
    expect((await send("POST", "/v1/players?operatorId=1", jsonOfSize(player2, closeLimit * 2))).status).toBe(
      201,
    );
  });
});
