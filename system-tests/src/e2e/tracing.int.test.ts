import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { sign } from "@wallet/contracts/hmac";
import { createApp } from "@wallet/gateway/app";
import { createGatewayMetrics } from "@wallet/gateway/metrics";
import { tenantsByPublicKey } from "@wallet/gateway/tenant-keys";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { AckLog } from "@wallet/queue/ack-log";
import { openDispatcher } from "@wallet/queue/open-dispatcher";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { createLogger } from "@wallet/telemetry/logger";
import { startTracing } from "@wallet/telemetry/tracing";
import { startLedgerWorkers } from "@wallet/worker/ledger.worker";
import { startOutboxRelay } from "@wallet/worker/outbox.relay";
import { startSideEffectWorkers } from "@wallet/worker/side-effects.worker";
import { quietWorkerMetrics } from "@wallet/worker/testing/quiet-metrics";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eventually, testTenants } from "../harness/system.ts";

// Gateway and worker in one process, so one in-memory exporter sees both sides of a callback:
// the spans must form one trace from the HTTP request to the MySQL statements.
const exporter = new InMemorySpanExporter();
const tracing = startTracing(
  { serviceName: "tracing-test", exporter: "none", sampler: "always_on", samplerRatio: 1 },
  [new SimpleSpanProcessor(exporter)],
);
const ledger = useTestLedger();
const prefix = `trace-${process.pid}-${Date.now()}`;
const closers: Array<() => Promise<unknown>> = [];
let baseUrl = "";

beforeAll(async () => {
  const logger = createLogger("tracing-test", "silent");
  const database = createDatabase({ url: ledger.url, poolSize: 4, traceStatements: true });
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: defaultLedgerConfig };
  const redis = createRedis({ url: inject("redisUrl") }, "tracing-test");
  const opened = await openDispatcher({
    redis: { url: inject("redisUrl") },
    prefix,
    partitions: 2,
    clientId: "gw",
  });
  const metrics = quietWorkerMetrics();
  const workers = startLedgerWorkers({
    ctx,
    redis,
    clock: opened.clock,
    answers: new AckLog(redis, prefix, { seconds: 1800, clock: opened.clock }),
    logger,
    metrics,
    prefix,
    partitions: 2,
    lockMs: 2_000,
    stallCheckMs: 1_000,
    pollMs: 100,
    maxBatch: 256,
  });
  const queues = new SideEffectQueues(redis, prefix);
  const crashAt = async () => {};
  const relay = startOutboxRelay({
    ctx,
    queues,
    logger,
    metrics,
    intervalMs: 50,
    batchSize: 500,
    sweepEveryMs: 60_000,
    sweepAgeSeconds: 60,
    crashAt,
  });
  const consumers = startSideEffectWorkers({
    ctx,
    redis,
    prefix,
    queues,
    logger,
    metrics,
    concurrency: 1,
    lockMs: 2_000,
    stallCheckMs: 1_000,
    maxAttempts: 5,
    crashAt,
  });
  const app = createApp({
    tenantFor: tenantsByPublicKey(testTenants.map((tenant) => ({ ...tenant, name: "t" }))),
    dispatcher: opened.dispatcher,
    closes: opened.closes,
    partitions: 2,
    deadlineMs: 5_000,
    bodyLimitBytes: 65_536,
    closeRoundBodyLimitBytes: 8_388_608,
    maxInFlight: 100,
    readiness: async () => ({ ready: true, checks: {} }),
    logger,
    metrics: createGatewayMetrics(5_000, async () => 1),
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () => new Promise((resolve) => server.close(resolve)),
    () => relay.stop(),
    () => Promise.all([...workers, ...consumers].map((worker) => worker.close())),
    () => queues.close(),
    () => opened.close(),
    async () => redis.disconnect(),
    () => database.close(),
    () => tracing.shutdown(),
  );
}, 30_000);

afterAll(async () => {
  for (const close of closers) await close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const raw = JSON.stringify(body);
  const tenant = testTenants[0];
  if (!tenant) throw new Error("tenant");
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-public-key": tenant.publicKey,
      "x-signature": sign(raw, tenant.secretKey),
      ...headers,
    },
    body: raw,
  });
  return { status: response.status, body: await response.text() };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const one = (spans: ReadableSpan[], predicate: (span: ReadableSpan) => boolean, what: string) => {
  const found = spans.filter(predicate);
  expect(found, what).toHaveLength(1);
  return found[0] as ReadableSpan;
};

describe("tracing", () => {
  it("one trace covers a callback: HTTP request → signature → enqueue → worker job → ledger batch → MySQL round trips", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    exporter.reset();
    // The platform's own trace context is continued, not replaced.
    const platformTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const answer = await post("/withdraw", betBody(player, { amount: 1_000 }), {
      traceparent: `00-${platformTrace}-00f067aa0ba902b7-01`,
    });
    expect(answer.status).toBe(200);
    const spans = await eventually(async () => {
      const finished = exporter.getFinishedSpans();
      return finished.some((span) => span.name === "POST /withdraw") ? finished : undefined;
    });

    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([platformTrace]));
    const server = one(spans, (span) => span.kind === SpanKind.SERVER, "server span");
    expect(server.name).toBe("POST /withdraw");
    expect(parentOf(server)).toBe("00f067aa0ba902b7");
    expect(server.attributes).toMatchObject({ "http.response.status_code": 200, "wallet.action": "BET" });

    const signature = one(spans, (span) => span.name === "verify signature", "signature span");
    expect(parentOf(signature)).toBe(server.spanContext().spanId);
    expect(signature.attributes["wallet.signature"]).toBe("ok");

    const producer = one(spans, (span) => span.kind === SpanKind.PRODUCER, "producer span");
    expect(parentOf(producer)).toBe(server.spanContext().spanId);
    const consumer = one(spans, (span) => span.kind === SpanKind.CONSUMER, "consumer span");
    expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
    expect(consumer.name).toBe(`${producer.attributes["messaging.destination.name"]} process`);

    // The group commit's transaction is a span of its own, under the job and linked to it.
    const batch = one(spans, (span) => span.name === "ledger batch", "batch span");
    expect(parentOf(batch)).toBe(consumer.spanContext().spanId);
    expect(batch.links.map((link) => link.context.spanId)).toEqual([consumer.spanContext().spanId]);
    expect(batch.attributes["wallet.batch.size"]).toBe(1);
    const statements = spans.filter(
      (span) => span.kind === SpanKind.CLIENT && span.name.startsWith("mysql "),
    );
    // Round trips, not statements: read and lock (from `SET autocommit = 0`, the transaction's opening
    // in sql/multi-statement.ts), then write and commit (the savepoint released first).
    expect(statements.map((span) => span.name)).toEqual(["mysql SET", "mysql UPDATE"]);
    expect(String(statements[0]?.attributes["db.query.text"])).toContain("FOR UPDATE");
    expect(String(statements[1]?.attributes["db.query.text"])).toMatch(
      /;\nRELEASE SAVEPOINT whole_transaction;\nCOMMIT;\nSET autocommit = 1$/,
    );
    for (const statement of statements) {
      expect(parentOf(statement)).toBe(batch.spanContext().spanId);
      // Parameterized text only: the amount and ids travel as values, never into the span.
      expect(String(statement.attributes["db.query.text"])).not.toContain(player.userId);
    }
  });

  it("a CLOSE_ROUND's side effects run in traces of their own, linked to the close", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const round = "trace-round";
    expect((await post("/withdraw", betBody(player, { amount: 1_000, action_id: round }))).status).toBe(200);
    exporter.reset();
    expect((await post("/deposit", closeRoundBody(round, [1_000], [0]))).status).toBe(200);
    const spans = await eventually(async () => {
      const finished = exporter.getFinishedSpans();
      const effects = finished.filter(
        (span) => span.kind === SpanKind.CONSUMER && span.name.startsWith("side-effects-"),
      );
      return effects.length === 4 ? finished : undefined;
    }, 15_000);

    const close = one(spans, (span) => span.name === "POST /deposit", "close request");
    const closeTrace = close.spanContext().traceId;
    const closeJob = one(
      spans,
      (span) => span.kind === SpanKind.CONSUMER && span.name.startsWith("ledger-"),
      "close job",
    );
    expect(closeJob.spanContext().traceId).toBe(closeTrace);

    const publish = one(spans, (span) => span.name === "outbox publish", "relay publish");
    expect(publish.links.map((link) => link.context.traceId)).toContain(closeTrace);
    const effects = spans.filter(
      (span) => span.kind === SpanKind.CONSUMER && span.name.startsWith("side-effects-"),
    );
    expect(effects.map((span) => span.name).sort()).toEqual([
      "side-effects-loyalty process",
      "side-effects-reporting process",
      "side-effects-rg process",
      "side-effects-tournaments process",
    ]);
    for (const effect of effects) {
      expect(effect.spanContext().traceId).not.toBe(closeTrace);
      expect(effect.links.map((link) => link.context.spanId)).toEqual([closeJob.spanContext().spanId]);
      expect(effect.attributes["wallet.side_effect.outcome"]).toBe("applied");
      // The effect's own statements are children of its span.
      const own = spans.filter(
        (span) =>
          span.name.startsWith("mysql ") && span.spanContext().traceId === effect.spanContext().traceId,
      );
      expect(own.length).toBeGreaterThan(0);
    }
  });
});
