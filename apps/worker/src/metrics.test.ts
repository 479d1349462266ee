import { describe, expect, it } from "vitest";
import { type CountedMessage, countForwarded, forwardedCounters } from "./metrics.ts";
import { quietWorkerMetrics } from "./testing/quiet-metrics.ts";

describe("the side-effect thread's counters reach the main thread's registry", () => {
  it("rows pruned per table and outbox rows of an unknown topic, posted as the thread posts them, are counted on the main thread", async () => {
    const main = quietWorkerMetrics();
    const posted: CountedMessage[] = [];
    const thread = forwardedCounters((message) => posted.push(message));
    thread.retentionPruned.inc({ table: "operator_actions" }, 7);
    thread.retentionPruned.inc({ table: "refused_closes" }, 0);
    thread.outboxUnknownTopic.inc(2);
    // Structured-cloned across the thread boundary, as `postMessage` does.
    for (const message of posted) countForwarded(main, structuredClone(message));

    const pruned = await main.registry.getSingleMetric("wallet_retention_pruned_total")?.get();
    expect(
      Object.fromEntries((pruned?.values ?? []).map((value) => [value.labels.table, value.value])),
    ).toEqual({ refused_closes: 0, operator_actions: 7, operator_api_tokens: 0 });
    const unknown = await main.registry.getSingleMetric("wallet_outbox_unknown_topic_total")?.get();
    expect(unknown?.values.map((value) => value.value)).toEqual([2]);
  });
});
