import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sign } from "@wallet/contracts/hmac";
import { devTenants } from "@wallet/contracts/tenants";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { type OpenDispatcher, openDispatcher } from "@wallet/queue/open-dispatcher";
import { createLogger } from "@wallet/telemetry/logger";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApp } from "./app.ts";
import { createGatewayMetrics, type GatewayMetrics } from "./metrics.ts";
import { tenantsByPublicKey } from "./tenant-keys.ts";
import { unavailableSeries } from "./testing/unavailable-series.ts";

// A gateway on a Redis prefix no worker serves: every call it sends waits out its deadline (503),
// and a second one admitting nothing sheds every callback at once (503 before its body is read).
const prefix = `test-${randomUUID().slice(0, 12)}`;
const [tenant] = devTenants;
let opened: OpenDispatcher;
const servers: Server[] = [];

async function gateway(metrics: GatewayMetrics, maxInFlight: number): Promise<string> {
  if (!tenant) throw new Error("no dev tenant");
  const app = createApp({
    metrics,
    tenantFor: tenantsByPublicKey([tenant]),
    dispatcher: opened.dispatcher,
    closes: opened.closes,
    partitions: 2,
    deadlineMs: 300,
    bodyLimitBytes: 64 * 1024,
    closeRoundBodyLimitBytes: 1024 * 1024,
    maxInFlight,
    logger: createLogger("gateway-test", "silent"),
    readiness: async () => ({ ready: true, checks: {} }),
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function post(base: string, path: string, body: Record<string, unknown>): Promise<number> {
  const raw = JSON.stringify(body);
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": tenant?.publicKey ?? "",
      "x-signature": sign(raw, tenant?.secretKey ?? ""),
    },
    body: raw,
  });
  await response.text();
  return response.status;
}

const perBet = {
  currency: "EUR",
  amount: 1_000,
  provider: "platform",
  game: "crashGame",
  action_id: "round-1",
  session_token: "s-1",
  platform: "desktop",
  user_id: "u-1",
};
/** One callback of every endpoint and action the contract knows. */
const everyCallback: Array<[string, Record<string, unknown>]> = [
  ["/auth", { user_token: "t-1", session_token: "s-1", currency: "EUR" }],
  ["/balance", { user_id: "u-1" }],
  ["/withdraw", { ...perBet, action: "BET", provider_tx_id: "tx-bet" }],
  ["/withdraw", { ...perBet, action: "FREE_BET", amount: 0, provider_tx_id: "tx-free" }],
  ["/deposit", { ...perBet, action: "WIN", provider_tx_id: "tx-win", withdraw_provider_tx_id: "tx-bet" }],
  ["/deposit", { ...perBet, action: "FREE_BET_WIN", provider_tx_id: "tx-fbw" }],
  [
    "/deposit",
    { ...perBet, action: "ROLL_BACK", provider_tx_id: "tx-rb", withdraw_provider_tx_id: "tx-bet" },
  ],
  // Not a valid close (no arrays), still one: sent to the ledger to be stored, so it waits like the rest.
  ["/deposit", { action: "CLOSE_ROUND", action_id: "round-1", provider_tx_id: "round-1-1-close-round" }],
];

beforeAll(async () => {
  opened = await openDispatcher({
    redis: { url: inject("redisUrl") },
    prefix,
    partitions: 2,
    clientId: "gw-test",
  });
});
afterAll(async () => {
  for (const server of servers) server.close();
  await opened.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
});

describe("every 503 the gateway answers lands in a series that existed at 0 (issue 34)", () => {
  it("a deadline 503 of each action and a shed 503 of each endpoint move their own pre-made series from 0 to 1, and no other 5xx series appears", async () => {
    const metrics = createGatewayMetrics(300, async () => 0);
    const before = await unavailableSeries(metrics.registry);
    expect(before.length).toBe(12);
    expect(before.every(([, count]) => count === 0)).toBe(true);

    const waiting = await gateway(metrics, 1_000);
    const shedding = await gateway(metrics, 0);
    const statuses = await Promise.all([
      ...everyCallback.map(([path, body]) => post(waiting, path, body)),
      ...["/auth", "/balance", "/withdraw", "/deposit"].map((path) => post(shedding, path, {})),
    ]);
    expect(statuses).toEqual(Array(12).fill(503));

    // The same twelve series, each now at 1: rate() sees the first 503 of every one.
    expect(new Map(await unavailableSeries(metrics.registry))).toEqual(
      new Map(before.map(([labels]) => [labels, 1])),
    );
  });
});
