import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { afterAll, describe, expect, inject, it } from "vitest";
import { exportReports } from "./reporting-export.ts";

const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "reporting-export-test");
const queues = new SideEffectQueues(redis, prefix);
const dir = mkdtempSync(join(tmpdir(), "reports-"));

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
});

function report(round: number, day = "2026-11-20"): RoundReport {
  return {
    eventId: roundReportEventId(7, `r-${round}`),
    schemaVersion: 1,
    operatorId: 7,
    roundId: `r-${round}`,
    game: "crashGame",
    closedAt: `${day}T10:00:0${round}.000Z`,
    betCount: 1,
    byCurrency: [{ currency: "EUR", betCount: 1, stakeSum: 1_000 * round, payoutSum: 0, ggr: 1_000 * round }],
    reconciliation: "matched",
  };
}

const lines = (day = "2026-11-20") =>
  readFileSync(join(dir, `round-reports-${day}.ndjson`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RoundReport);
const run = () => exportReports({ redis, prefix, dir, untilIdle: true });

describe("pnpm reporting:export", () => {
  it("drains the queue into a day file per closing day, a report a line, acknowledging each once on disk", async () => {
    await queues.reporting.publish([report(1), report(2), report(3, "2026-11-21")]);
    expect(await run()).toEqual({ written: 3, skipped: 0 });
    expect(lines()).toEqual([report(1), report(2)]);
    expect(lines("2026-11-21")).toEqual([report(3, "2026-11-21")]);
    expect(await queues.reporting.backlog()).toEqual({ unread: 0, oldestAgeSeconds: 0 });
  });

  it("after a crash mid-line and before an acknowledgement: the cut line is dropped, nothing is skipped or written twice", async () => {
    // The crash: report 4 was written whole but not acknowledged (its job comes again), report 5 was cut mid-line.
    const file = join(dir, "round-reports-2026-11-20.ndjson");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}${JSON.stringify(report(4))}\n${JSON.stringify(report(5)).slice(0, 30)}`,
    );
    await queues.reporting.publish([report(4), report(5), report(2)]);
    expect(await run()).toEqual({ written: 1, skipped: 2 });
    expect(lines().map((one) => one.roundId)).toEqual(["r-1", "r-2", "r-4", "r-5"]);
    expect(lines()[3]).toEqual(report(5));
    expect(readdirSync(dir).sort()).toEqual([
      "round-reports-2026-11-20.ndjson",
      "round-reports-2026-11-21.ndjson",
    ]);
  });
});
