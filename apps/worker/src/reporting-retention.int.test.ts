import { randomUUID } from "node:crypto";
import { type RoundReport, roundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { versionOneReport } from "@wallet/contracts/testing/version-one-report";
import { applySideEffect } from "@wallet/ledger/side-effects/apply-side-effect";
import { relayOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { earliestStoredReport, reportsSince } from "@wallet/ledger/side-effects/reports-since";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { seedStoredReport } from "@wallet/ledger/testing/round-reads";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { jobIdFor } from "@wallet/queue/reporting-queue";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { republishReports } from "./republish.ts";

const ledger = useTestLedger();
const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "reporting-retention-test");
const queues = new SideEffectQueues(redis, prefix);
const rounds = ["r-1", "r-2", "r-3", "r-4", "r-5"];
/** The reports as the reporting consumer published them, in round order. */
const published: RoundReport[] = [];

beforeAll(async () => {
  // Five real rounds, bet and closed, their reporting effect applied as the consumer applies it.
  const player = await playerWithSession(ledger, { balance: 100_000n });
  for (const round of rounds) {
    expect((await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: round }))).status).toBe(
      200,
    );
    expect((await sendDeposit(ledger, closeRoundBody(round, [1_000], [0]))).status).toBe(200);
    const events: unknown[] = [];
    await relayOutbox(ledger.db, async (rows) => {
      for (const row of rows) if (row.topic === "reporting") events.push(JSON.parse(row.payload));
    });
    await applySideEffect({
      ctx: ledger.ctx,
      input: {
        topic: "reporting",
        event: events[0],
        publishReport: async (report) => {
          published.push(report);
          await queues.reporting.publish([report]);
        },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct queue times, oldest first
  }
});

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
});

const waitingIds = async () =>
  (await queues.reporting.queue.getJobs(["wait"], 0, -1, true)).map((job) => String(job.id));
const idsOf = (ids: string[]) => ids.map((round) => jobIdFor(roundReportEventId(1, round)));

describe("the reporting queue's bound, and republishing what it dropped", () => {
  it("drops the oldest unread reports past the length bound, and says from when to republish", async () => {
    expect(await waitingIds()).toEqual(idsOf(rounds));
    const backlog = await queues.reporting.backlog();
    expect(backlog.unread).toBe(5);
    expect(backlog.oldestAgeSeconds).toBeGreaterThan(0);

    const trimmed = await queues.reporting.trim({ maxAgeSeconds: 3_600, maxLength: 2 }, 2);
    expect(trimmed.dropped).toBe(3);
    expect(trimmed.rounds).toEqual(["r-1", "r-2", "r-3"].map((roundId) => ({ tenantId: 1, roundId })));
    // From when to republish: the earliest dropped report's own row, on the clock republish reads.
    const since = await earliestStoredReport(ledger.db, trimmed.rounds);
    const page = await reportsSince(ledger.db, since ?? new Date(), undefined);
    expect(page.reports.map((report) => report.roundId)).toEqual(rounds);
    expect(await waitingIds()).toEqual(idsOf(["r-4", "r-5"]));
    expect((await queues.reporting.backlog()).unread).toBe(2);
    // Within the bound nothing more goes.
    expect((await queues.reporting.trim({ maxAgeSeconds: 3_600, maxLength: 2 })).dropped).toBe(0);
  });

  it("republish --since puts every report back once, byte for byte what was published, none twice", async () => {
    const since = new Date(Date.now() - 60_000);
    expect(await republishReports(ledger.db, queues.reporting, since)).toEqual({
      published: 5,
      unreadable: [],
    });
    expect(await waitingIds()).toEqual(expect.arrayContaining(idsOf(rounds)));
    expect((await waitingIds()).length).toBe(5);
    for (const [index, round] of rounds.entries()) {
      const job = await queues.reporting.queue.getJob(jobIdFor(roundReportEventId(1, round)));
      expect(roundReport.parse(job?.data)).toEqual(published[index]);
    }
    // Again: the jobs still wait, so nothing is added.
    expect((await republishReports(ledger.db, queues.reporting, since)).published).toBe(5);
    expect((await waitingIds()).length).toBe(5);
    // Nothing made after `since` is skipped: a later `since` finds none of these.
    expect(
      (await republishReports(ledger.db, queues.reporting, new Date(Date.now() + 60_000))).published,
    ).toBe(0);
  });

  it("pages through the stored reports in the order they were made, none skipped or repeated", async () => {
    const seen: string[] = [];
    let after: Parameters<typeof reportsSince>[2];
    do {
      const page = await reportsSince(ledger.db, new Date(0), after, 2);
      seen.push(...page.reports.map((report) => report.roundId));
      after = page.next;
    } while (after);
    expect(seen).toEqual(rounds);
  });

  it("drops unread reports past the age bound", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const trimmed = await queues.reporting.trim({ maxAgeSeconds: 0.01, maxLength: 1_000 }, 2);
    expect(trimmed.dropped).toBe(5);
    expect(await queues.reporting.backlog()).toEqual({ unread: 0, oldestAgeSeconds: 0 });
  });

  it("republish skips and names a stored report that reads as no report, upgrades a version 1 one (sums past 2^53), and publishes every other page", async () => {
    // Issue 31: one report past its schema made `side-effects republish` exit 1, so that page of
    // reports and every later one was never republished.
    await new Promise((resolve) => setTimeout(resolve, 50)); // after the reports of the tests above
    const since = new Date();
    const v1 = versionOneReport(1, "v1-round");
    await seedStoredReport(ledger, {
      tenantId: 1,
      roundId: "v1-round",
      eventId: v1.stored.eventId,
      report: JSON.stringify(v1.stored),
    });
    await seedStoredReport(ledger, {
      tenantId: 1,
      roundId: "bad-round",
      eventId: roundReportEventId(1, "bad-round"),
      report: '{"eventId": "round-report:1:bad-round", "byCurrency": "lots"}',
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 3; i++)
      await seedStoredReport(ledger, {
        tenantId: 1,
        roundId: `after-${i}`,
        eventId: roundReportEventId(1, `after-${i}`),
        report: JSON.stringify(versionOneReport(1, `after-${i}`).stored),
      });
    const { published, unreadable } = await republishReports(ledger.db, queues.reporting, since);
    expect(published).toBe(4);
    expect(unreadable).toEqual([{ tenantId: 1, roundId: "bad-round", problem: expect.any(String) }]);
    const job = await queues.reporting.queue.getJob(jobIdFor(v1.stored.eventId));
    expect(roundReport.parse(job?.data)).toEqual(v1.upgraded);
    for (let i = 0; i < 3; i++)
      expect(
        await queues.reporting.queue.getJob(jobIdFor(roundReportEventId(1, `after-${i}`))),
      ).toBeDefined();
  });
});
