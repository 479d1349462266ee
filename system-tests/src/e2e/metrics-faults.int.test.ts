import type { CloseRoundEvent } from "@wallet/contracts/side-effects";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { describe, expect, inject, it } from "vitest";
import { authedPlayer, callGateway, eventually, scrapeOf, useTestSystem } from "../harness/system.ts";

// The signals of things going wrong: shedding, deadlines, jobs refused as expired, failed jobs,
// no worker serving. Each is provoked on purpose and read from a real scrape.
const system = useTestSystem({ deadlineMs: 400 });

describe("metrics of failures", () => {
  it("a full gateway sheds and counts exactly the requests it refused", async () => {
    await system.startWorker();
    const gateway = await system.startGateway({ MAX_IN_FLIGHT: "1" });
    const player = await authedPlayer(system, gateway);
    const body = { user_id: player.userId, session_token: player.sessionToken, currency: "EUR" };
    const before = await scrapeOf(gateway);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callGateway(gateway, "/balance", body)),
    );
    const after = await scrapeOf(gateway);
    const shed = answers.filter((answer) => answer.json.message === "gateway overloaded; retry").length;
    expect(shed).toBeGreaterThan(0);
    const delta = (name: string, labels: Record<string, string>) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(delta("wallet_callback_shed_total", { endpoint: "balance" })).toBe(shed);
    expect(delta("wallet_callback_duration_seconds_count", { endpoint: "balance", status: "503" })).toBe(
      shed,
    );
    expect(delta("wallet_callback_duration_seconds_count", { endpoint: "balance", status: "200" })).toBe(
      20 - shed,
    );
  });

  it("no worker: the deadline passes (counted), workers_live falls to 0, and the late job is refused as expired", async () => {
    const gateway = system.processes.find((proc) => proc.name === "gateway");
    if (!gateway) throw new Error("the first test starts it");
    for (const proc of system.processes.filter((each) => each.name === "worker")) await system.stop(proc);

    const before = await scrapeOf(gateway);
    const late = await callGateway(gateway, "/balance", { user_id: "ghost", currency: "EUR" });
    expect(late.status).toBe(503);
    expect(late.json.message).toBe("the wallet did not answer in time; retry");
    const after = await scrapeOf(gateway);
    expect(
      sampleSum(after, "wallet_callback_deadline_exceeded_total", { endpoint: "balance" }) -
        sampleSum(before, "wallet_callback_deadline_exceeded_total", { endpoint: "balance" }),
    ).toBe(1);
    await eventually(
      async () =>
        (await scrapeOf(gateway)).samples.some((s) => s.name === "wallet_workers_live" && s.value === 0)
          ? true
          : undefined,
      10_000,
      "workers_live = 0",
    );

    // A worker that comes back finds the jobs that waited past their deadline and refuses them unrun.
    const revived = await system.startWorker();
    await eventually(
      async () =>
        sampleSum(await scrapeOf(revived), "wallet_ledger_outcomes_total", { result: "expired" }) ||
        undefined,
      10_000,
      "expired job counted",
    );
    const scraped = await scrapeOf(revived);
    expect(sampleSum(scraped, "wallet_ledger_outcomes_total")).toBe(1);
    expect(
      sampleSum(scraped, "wallet_ledger_outcomes_total", {
        op: "balance",
        result: "expired",
        status: "none",
      }),
    ).toBe(1);
    expect(sampleSum(scraped, "wallet_ledger_job_duration_seconds_count")).toBe(0);
  });

  it("a side-effect job that throws is counted as failed on its queue", async () => {
    const worker = await system.startWorker();
    const redis = createRedis({ url: inject("redisUrl") }, "metrics-test");
    const queues = new SideEffectQueues(redis, system.prefix);
    try {
      await queues.publish(
        // A payload no consumer can parse, on purpose: the type would refuse it, the wire does not.
        [{ topic: "rg", eventId: "not-an-event", payload: { nonsense: true } as unknown as CloseRoundEvent }],
        "not-an-event",
      );
      // Any live worker may take the job (the previous test's worker too): count across all of them.
      const workers = system.processes.filter(
        (proc) => proc.name === "worker" && proc.child.exitCode === null,
      );
      expect(workers).toContain(worker);
      const total = async (name: string, labels: Record<string, string> = {}) =>
        (
          await Promise.all(workers.map(async (proc) => sampleSum(await scrapeOf(proc), name, labels)))
        ).reduce((sum, value) => sum + value, 0);
      await eventually(
        async () => (await total("wallet_jobs_failed_total", { queue: "side-effects-rg" })) >= 1 || undefined,
        10_000,
        "failed job counted",
      );
      expect(await total("wallet_side_effects_total")).toBe(0);
    } finally {
      await queues.close();
      redis.disconnect();
    }
  });
});
