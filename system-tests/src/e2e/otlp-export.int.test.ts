import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, authedPlayer, callGateway, eventually, useTestSystem } from "../harness/system.ts";

// The real processes, configured only by the standard OTEL_* variables, export to a collector
// (a fake one here, speaking OTLP/HTTP JSON): the same trace arrives from the gateway and the worker.
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}
const received: ExportedSpan[] = [];
let collector: Server;
let endpoint = "";

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const parsed = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
            scopeSpans: Array<{ spans: Array<Omit<ExportedSpan, "service">> }>;
          }>;
        };
        for (const resourceSpans of parsed.resourceSpans) {
          const service =
            resourceSpans.resource.attributes.find((attribute) => attribute.key === "service.name")?.value
              .stringValue ?? "?";
          for (const scope of resourceSpans.scopeSpans)
            for (const span of scope.spans) received.push({ ...span, service });
        }
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => collector.close(resolve)));

const system = useTestSystem();

describe("OTLP export from the real processes", () => {
  let gateway: AppProcess;
  beforeAll(async () => {
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" };
    await system.startWorker(otel);
    gateway = await system.startGateway(otel);
  }, 60_000);

  it("a callback's spans arrive from both services under one trace id", async () => {
    const player = await authedPlayer(system, gateway);
    const bet = await callGateway(gateway, "/withdraw", betBody(player, { amount: 500 }));
    expect(bet.status).toBe(200);
    const trace = await eventually(async () => {
      const server = received.find((span) => span.name === "POST /withdraw");
      if (!server) return undefined;
      const spans = received.filter((span) => span.traceId === server.traceId);
      // Each service exports in batches as its spans end: wait for the last of each kind to arrive.
      const arrived = (test: (span: (typeof spans)[number]) => boolean) => spans.some(test);
      return arrived((span) => span.service === "wallet-worker" && span.name.startsWith("mysql ")) &&
        arrived((span) => span.name.endsWith(" process")) &&
        arrived((span) => span.name.endsWith(" publish"))
        ? spans
        : undefined;
    }, 15_000);
    expect(new Set(trace.map((span) => span.service))).toEqual(new Set(["wallet-gateway", "wallet-worker"]));
    const producer = trace.find((span) => span.name.endsWith(" publish"));
    const consumer = trace.find((span) => span.name.endsWith(" process"));
    expect(producer?.service).toBe("wallet-gateway");
    expect(consumer?.service).toBe("wallet-worker");
    expect(consumer?.parentSpanId).toBe(producer?.spanId);
  });

  it("sampling is configurable: a gateway with always_off exports nothing, and the worker follows its decision", async () => {
    const quiet = await system.startGateway({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "always_off",
      OTEL_SERVICE_NAME: "quiet-gateway",
    });
    const player = await authedPlayer(system, quiet);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    await settle();
    const workerSpans = received.filter((span) => span.service === "wallet-worker").length;
    expect((await callGateway(quiet, "/withdraw", betBody(player, { amount: 500 }))).status).toBe(200);
    await settle();
    expect(received.filter((span) => span.service === "quiet-gateway")).toEqual([]);
    // The worker samples parent-based: the gateway's "not sampled" travels in the job's traceparent.
    expect(received.filter((span) => span.service === "wallet-worker")).toHaveLength(workerSpans);
  });
});
