import { randomUUID } from "node:crypto";
import { callbackCatalog, parseReply } from "@wallet/contracts/callback-catalog";
import { sign } from "@wallet/contracts/hmac";
import { callbackOps } from "@wallet/contracts/jobs";
import { type TestLedger, useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { eventually } from "@wallet/queue/testing/eventually";
import { type Scrape, scrape } from "@wallet/telemetry/testing/scrape";
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { harnessPath } from "./env.ts";
import { type AppProcess, startApp, stopApp } from "./processes/app-process.ts";

export type { AppProcess };
export { eventually };

export const testTenants = [
  { operatorId: 1, publicKey: "public-key-1", secretKey: "secret-key-1" },
  { operatorId: 2, publicKey: "public-key-2", secretKey: "secret-key-2" },
];

export interface SystemOptions {
  partitions?: number;
  deadlineMs?: number;
  env?: Record<string, string>;
}

/**
 * A running system for end-to-end tests: real gateway and worker processes (started with the
 * same command as production), a database of its own and a Redis prefix of its own. Processes and
 * data are removed after the test file.
 */
export class TestSystem {
  readonly prefix = `test-${randomUUID().slice(0, 12)}`;
  readonly processes: AppProcess[] = [];

  constructor(
    readonly ledger: TestLedger,
    private readonly options: SystemOptions = {},
  ) {}

  private baseEnv(): Record<string, string> {
    return {
      PATH: harnessPath,
      DATABASE_URL: this.ledger.url,
      REDIS_URL: inject("redisUrl"),
      REDIS_PREFIX: this.prefix,
      TENANTS: JSON.stringify(testTenants),
      LEDGER_PARTITIONS: String(this.options.partitions ?? 8),
      CALLBACK_DEADLINE_MS: String(this.options.deadlineMs ?? 2500),
      DB_POOL_SIZE: "8",
      METRICS_PORT: "0",
      OPERATOR_API_TOKEN: "test-operator-token",
      LOG_LEVEL: "info",
      ...this.options.env,
    };
  }

  async startWorker(env: Record<string, string> = {}): Promise<AppProcess> {
    return this.spawnApp("worker", { ...this.baseEnv(), ...env }, "worker serving");
  }

  async startOperatorApi(env: Record<string, string> = {}): Promise<AppProcess> {
    return this.spawnApp(
      "operator-api",
      { ...this.baseEnv(), OPERATOR_API_PORT: "0", ...env },
      "operator API listening",
    );
  }

  /** The platform simulator, sending callbacks to `gateway` for every test tenant. */
  async startPlatformSim(gateway: AppProcess, env: Record<string, string> = {}): Promise<AppProcess> {
    // Catalogs are per operator: tenant 2 sees fewer games than tenant 1.
    const operators = testTenants.map((tenant) => ({
      ...tenant,
      walletUrl: `http://127.0.0.1:${gateway.port}`,
      games: tenant.operatorId === 2 ? ["crashGame", "blackjack"] : undefined,
    }));
    return this.spawnApp(
      "platform-sim",
      {
        ...this.baseEnv(),
        PLATFORM_SIM_PORT: "0",
        SIM_OPERATORS: JSON.stringify(operators),
        // The contract's retry policy, shrunk so tests do not wait minutes.
        SIM_RETRY_BASE_MS: "50",
        SIM_RETRY_MAX_MS: "1000",
        SIM_RETRY_JITTER_MS: "20",
        ...env,
      },
      "platform simulator listening",
    );
  }

  async startGateway(env: Record<string, string> = {}): Promise<AppProcess> {
    return this.spawnApp("gateway", { ...this.baseEnv(), GATEWAY_PORT: "0", ...env }, "gateway listening");
  }

  private spawnApp(app: string, env: Record<string, string>, ready: string): Promise<AppProcess> {
    return startApp({
      name: app,
      cwd: `apps/${app}`,
      env,
      ready,
      track: (proc) => this.processes.push(proc),
    });
  }

  /** SIGTERM (graceful) or SIGKILL (crash); resolves when the process is gone. */
  stop(proc: AppProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    return stopApp(proc, signal);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.processes.map((proc) => this.stop(proc)));
    await this.wipeRedis();
  }

  /** Deletes every key of this system: what a Redis that lost its data looks like to it. */
  async wipeRedis(): Promise<void> {
    await deleteKeysUnder(inject("redisUrl"), this.prefix);
  }
}

/** GET on the operator API with its bearer token. */
export async function operatorGet(api: AppProcess, path: string, token = "test-operator-token") {
  const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A test file's system: its database and Redis prefix, torn down after the file. */
export function useTestSystem(options: SystemOptions = {}): TestSystem {
  const ledger = useTestLedger();
  const system = new TestSystem(ledger, options);
  // A failing end-to-end test shows what its processes logged last: the only way to see inside them.
  afterEach((context) => {
    if (context.task.result?.state !== "fail") return;
    for (const proc of system.processes) {
      console.error(
        `--- last log lines of ${proc.name} (pid ${proc.child.pid}) ---\n${proc.logs.slice(-25).join("\n")}`,
      );
    }
  });
  afterAll(async () => {
    await system.shutdown();
  }, 30_000);
  return system;
}

export interface CallOptions {
  tenant?: (typeof testTenants)[number];
  /** Replaces the computed X-Signature; `null` leaves the header out. */
  signature?: string | null;
  publicKey?: string | null;
  /** Sends these bytes instead of JSON.stringify(body). */
  raw?: string | Buffer;
  timeoutMs?: number;
}

export interface CallResult {
  status: number;
  text: string;
  json: { code: number; message: string; data?: Record<string, unknown> };
  ms: number;
}

/** POSTs a signed callback to a gateway, the way the platform does. */
export async function callGateway(
  gateway: Pick<AppProcess, "port">,
  path: string,
  body: unknown,
  options: CallOptions = {},
): Promise<CallResult> {
  const tenant = options.tenant ?? testTenants[0];
  if (!tenant) throw new Error("no tenant");
  const raw = options.raw ?? JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const publicKey = options.publicKey === undefined ? tenant.publicKey : options.publicKey;
  if (publicKey !== null) headers["x-public-key"] = publicKey;
  const signature = options.signature === undefined ? sign(raw, tenant.secretKey) : options.signature;
  if (signature !== null) headers["x-signature"] = signature;
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${gateway.port}${path}`, {
    method: "POST",
    headers,
    body: raw,
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  let json: CallResult["json"];
  try {
    json = JSON.parse(text);
  } catch {
    json = { code: response.status, message: text };
    return { status: response.status, text, json, ms: performance.now() - started };
  }
  // Every reply of a callback is read against its response schema: one off its shape fails the test.
  const op = callbackOps.find((candidate) => callbackCatalog[candidate].path === path);
  if (op) parseReply(op, response.status, text);
  return { status: response.status, text, json, ms: performance.now() - started };
}

/**
 * The platform's retry policy, shrunk for tests: the same bytes again after a 5xx, a timeout or a
 * connection error; any other status is final.
 */
export async function callWithRetry(
  gateways: Array<Pick<AppProcess, "port">>,
  path: string,
  body: unknown,
  options: CallOptions & { attempts?: number; backoffMs?: number } = {},
): Promise<CallResult & { attempts: number }> {
  const attempts = options.attempts ?? 20;
  const raw = options.raw ?? JSON.stringify(body);
  let last: CallResult | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const gateway = gateways[(attempt - 1) % gateways.length];
    if (!gateway) throw new Error("no gateway");
    try {
      last = await callGateway(gateway, path, body, { ...options, raw });
      if (last.status < 500) return { ...last, attempts: attempt };
    } catch {
      // Connection refused or timed out: transient, like a 5xx.
    }
    await new Promise((resolve) => setTimeout(resolve, options.backoffMs ?? 100));
  }
  return { ...(last ?? { status: 0, text: "", json: { code: 0, message: "no answer" }, ms: 0 }), attempts };
}

/** A player created in the ledger and authenticated through the gateway's real `/auth`. */
export async function authedPlayer(
  system: TestSystem,
  gateway: AppProcess,
  options: { balance?: bigint; maxbet?: bigint; tenant?: (typeof testTenants)[number] } = {},
) {
  const tenant = options.tenant ?? testTenants[0];
  if (!tenant) throw new Error("no tenant");
  const { createPlayer } = await import("@wallet/ledger/verbs/create-player");
  const { mintUserToken } = await import("@wallet/ledger/verbs/mint-user-token");
  const ctx = system.ledger.ctx;
  const { playerId, userId } = await createPlayer({
    ctx,
    input: {
      tenantId: tenant.operatorId,
      username: "e2e",
      currency: "EUR",
      balance: options.balance ?? 100_000n,
      maxbet: options.maxbet ?? 1_000_000n,
    },
  });
  const { userToken } = await mintUserToken({
    ctx,
    input: { tenantId: tenant.operatorId, userId, ttlSeconds: 600 },
  });
  const sessionToken = `session-${randomUUID()}`;
  const auth = await callGateway(
    gateway,
    "/auth",
    { user_token: userToken, session_token: sessionToken, platform: "desktop", currency: "EUR" },
    { tenant },
  );
  if (auth.status !== 200) throw new Error(`auth failed: ${auth.text}`);
  return { tenantId: tenant.operatorId, userId, playerId, sessionToken, currency: "EUR", userToken, auth };
}

/** A crashGame tournament of operator 1, begun a minute ago, for an hour: one that ranks rounds now. */
export async function runningTournament(system: TestSystem, name: string) {
  const { createTournament } = await import("@wallet/ledger/verbs/create-tournament");
  return createTournament({
    ctx: system.ledger.ctx,
    input: {
      tenantId: 1,
      game: "crashGame",
      name,
      startsAt: new Date(Date.now() - 60_000),
      endsAt: new Date(Date.now() + 3_600_000),
    },
  });
}

/** A test file's system with one worker and one gateway running; read `gateway` inside tests. */
export function useRunningSystem(options: SystemOptions = {}): { system: TestSystem; gateway: AppProcess } {
  const running = { system: useTestSystem(options), gateway: undefined as unknown as AppProcess };
  beforeAll(async () => {
    await running.system.startWorker();
    running.gateway = await running.system.startGateway();
  }, 60_000);
  return running;
}

/** JSON request to the operator API with its bearer token. */
export async function operatorCall(api: AppProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
    method,
    headers: { authorization: "Bearer test-operator-token", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

/**
 * A closed round's status (`GET /v1/rounds/:round_id`) once its four side effects are applied;
 * fails after `withinMs`.
 */
export function sideEffectsApplied(api: AppProcess, roundId: string, withinMs = 15_000, operatorId = 1) {
  return eventually(
    async () => {
      const { json } = await operatorGet(
        api,
        `/v1/rounds/${encodeURIComponent(roundId)}?operatorId=${operatorId}`,
      );
      const effects = json.side_effects as Record<string, string> | null;
      return effects && Object.values(effects).every((state) => state === "applied") ? json : undefined;
    },
    withinMs,
    `side effects of ${roundId}`,
  );
}

/** A process's Prometheus metrics, parsed. */
export function scrapeOf(proc: AppProcess): Promise<Scrape> {
  if (proc.metricsPort === undefined) throw new Error(`${proc.name} logged no metricsPort`);
  return scrape(proc.metricsPort);
}
