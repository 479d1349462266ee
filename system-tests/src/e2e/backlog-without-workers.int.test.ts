import { seedOutbox } from "@wallet/ledger/testing/outbox-seed";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { describe, expect, it } from "vitest";
import { callGateway, scrapeOf, useTestSystem } from "../harness/system.ts";

// With every worker down the backlog grows, and that is when an SRE needs to see it: the operator
// API (which reaches MySQL and Redis and keeps running) exports the same backlog gauges as a worker,
// so the queue and outbox panels stay filled and WalletOutboxStuck can still fire (issue 21).
const system = useTestSystem({ deadlineMs: 500 });

describe("the backlog with no worker running", () => {
  it("is exported by the operator API: queue depth per partition, outbox pending rows and oldest age", async () => {
    const api = await system.startOperatorApi();
    const gateway = await system.startGateway();
    expect(system.processes.some((proc) => proc.name === "worker")).toBe(false);
    // Three closes' rows committed 864 s ago and never applied, as a dead relay leaves them.
    await seedOutbox(system.ledger.db, "stuck-", 3, { applied: null, published: 0.01 });
    // A callback no worker takes: answered 503 at the deadline, its job left waiting on its partition.
    const answer = await callGateway(gateway, "/balance", {
      session_token: "nobody-session",
      currency: "EUR",
    });
    expect(answer.status).toBe(503);

    const scrape = await scrapeOf(api);
    expect(sampleSum(scrape, "wallet_outbox_pending_rows")).toBe(3);
    const oldest = sampleSum(scrape, "wallet_outbox_oldest_pending_age_seconds");
    expect(oldest).toBeGreaterThan(800);
    expect(oldest).toBeLessThan(1_000);
    expect(sampleSum(scrape, "wallet_ledger_queue_depth")).toBe(1);
    // One series per partition, so `max by (partition)` across workers and the API reads the same.
    const partitions = scrape.samples.filter((sample) => sample.name === "wallet_ledger_queue_depth");
    expect(partitions.map((sample) => sample.labels.partition).sort((a, b) => Number(a) - Number(b))).toEqual(
      ["0", "1", "2", "3", "4", "5", "6", "7"],
    );
  });
});
