import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { dropDatabase, migrateDatabase } from "@wallet/ledger/migrate";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { createOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import { upsertTenant } from "@wallet/ledger/verbs/upsert-tenant";
import { startApp, stopApp } from "@wallet/system-tests/harness/processes/app-process";
import { cpuSeconds } from "./cpu.ts";
import { benchEnvSchema } from "./env.ts";

/**
 * `pnpm bench:token-lookup` (issue 40): what an operator-API request pays for its bearer token. One
 * operator API process; GET /v1/players/{id} in a closed loop (concurrency 1), REQUESTS at a time,
 * alternating the two ways a request is authenticated: a per-operator token (`pnpm tokens create`,
 * looked up in MariaDB by its hash) and OPERATOR_API_TOKEN (compared in memory, no read: what a
 * request served from a token cache costs). ROUNDS of each, alternated; the median round is quoted:
 * wall time per request at the client and the API process's CPU (user + system) per request.
 * Prints the numbers; never fails on them.
 */
const REQUESTS = 3_000;
const ROUNDS = 6;
const ENV_TOKEN = "bench-operator-token";
const tenant = { operatorId: 1, publicKey: "bench-public-key", secretKey: "bench-secret-key" };

const env = benchEnvSchema.parse(process.env);
const url = new URL(env.DATABASE_URL);
url.pathname = `/${env.BENCH_DATABASE}_tokens`;
await dropDatabase(url.toString());
await migrateDatabase(url.toString());
const database = createDatabase({ url: url.toString(), poolSize: 2 });
const ctx = { db: database.db, batch: database.batch, config: defaultLedgerConfig };
await upsertTenant({ ctx, input: { id: tenant.operatorId, publicKey: tenant.publicKey } });
const { userId } = await createPlayer({
  ctx,
  input: { tenantId: tenant.operatorId, username: "bench", currency: "EUR", balance: 1_000n, maxbet: 100n },
});
const { token: operatorToken } = await createOperatorToken(database.db, {
  tenantId: tenant.operatorId,
  scope: "read",
  label: "bench",
});

const api = await startApp({
  name: "operator-api",
  cwd: "apps/operator-api",
  env: {
    PATH: process.env.PATH ?? "",
    DATABASE_URL: url.toString(),
    REDIS_URL: env.REDIS_URL,
    REDIS_PREFIX: "bench-tokens",
    TENANTS: JSON.stringify([tenant]),
    OPERATOR_API_PORT: "0",
    OPERATOR_API_TOKEN: ENV_TOKEN,
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
  },
  ready: "operator API listening",
});
const pid = api.child.pid ?? 0;
const path = `http://127.0.0.1:${api.port}/v1/players/${encodeURIComponent(userId)}`;

/** One round: REQUESTS sequential GETs with `token`; wall µs and API CPU µs per request. */
async function round(token: string): Promise<{ wallUs: number; cpuUs: number }> {
  const cpuBefore = cpuSeconds(pid) ?? 0;
  const started = performance.now();
  for (let request = 0; request < REQUESTS; request++) {
    const response = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`GET answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  const wallUs = ((performance.now() - started) * 1_000) / REQUESTS;
  const cpuUs = (((cpuSeconds(pid) ?? 0) - cpuBefore) * 1_000_000) / REQUESTS;
  return { wallUs, cpuUs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

try {
  // Warm-up: the JIT, the pools, the token's first read.
  await round(operatorToken);
  await round(ENV_TOKEN);
  const sides = { "per-operator token": operatorToken, OPERATOR_API_TOKEN: ENV_TOKEN };
  const results: Record<string, Array<{ wallUs: number; cpuUs: number }>> = Object.fromEntries(
    Object.keys(sides).map((name) => [name, []]),
  );
  for (let index = 0; index < ROUNDS; index++) {
    // A/B then B/A: neither side always runs on the warmer machine.
    const order = index % 2 === 0 ? Object.entries(sides) : Object.entries(sides).reverse();
    for (const [name, token] of order) results[name]?.push(await round(token));
  }
  console.log(`GET /v1/players/{id}, ${REQUESTS} requests a round, concurrency 1, ${ROUNDS} rounds each:`);
  for (const [name, rounds] of Object.entries(results))
    console.log(
      `  ${name.padEnd(20)} median wall ${median(rounds.map((r) => r.wallUs)).toFixed(0)} µs/request, ` +
        `API CPU ${median(rounds.map((r) => r.cpuUs)).toFixed(0)} µs/request ` +
        `(rounds: ${rounds.map((r) => r.wallUs.toFixed(0)).join(", ")} µs)`,
    );
} finally {
  await stopApp(api);
  await database.close();
  await dropDatabase(url.toString());
}
