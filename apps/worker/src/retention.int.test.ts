import { randomUUID } from "node:crypto";
import type { PrunedTable } from "@wallet/ledger/retention/prune-expired";
import { seedOutbox } from "@wallet/ledger/testing/outbox-seed";
import {
  denyRuntimeDelete,
  retainedNames,
  seedOperatorAction,
  seedOperatorToken,
  seedRefusedClose,
} from "@wallet/ledger/testing/retention-rows";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { eventually } from "@wallet/queue/testing/eventually";
import { createLogger } from "@wallet/telemetry/logger";
import { afterAll, describe, expect, inject, it } from "vitest";
import { startRetention } from "./retention.ts";
import { quietWorkerMetrics } from "./testing/quiet-metrics.ts";

/**
 * The worker's retention loop, as its side-effect thread runs it, against a real ledger (run as the
 * runtime user, with its grants) and Redis: the outbox and the operator's records each pruned after
 * their own period, in chunks, each counted; what is young, live or unresolved stays.
 */
const ledger = useTestLedger();
const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "retention-test");
const queues = new SideEffectQueues(redis, prefix);
const DAY = 86_400;

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
});

/** Per table, rows past its period and rows within it (young, live or unresolved), named `<tag>-…`. */
async function seed(tag: string): Promise<void> {
  const { db } = ledger;
  for (let i = 0; i < 7; i++) await seedOperatorAction(db, `${tag}-old-${i}`, 401);
  await seedOperatorAction(db, `${tag}-young`, 10);
  await seedRefusedClose(db, `${tag}-resolved-old`, { refused: 1_000, resolved: 91 });
  await seedRefusedClose(db, `${tag}-resolved-recently`, { refused: 1_000, resolved: 5 });
  await seedRefusedClose(db, `${tag}-unresolved`, { refused: 1_000, resolved: null });
  await seedOperatorToken(db, `${tag}-revoked-old`, 401);
  await seedOperatorToken(db, `${tag}-revoked-recently`, 1);
  await seedOperatorToken(db, `${tag}-live`, null);
  await seedOutbox(db, `${tag}-applied-`, 5, { applied: 8, published: 8 });
}

const names = (tag: string) => retainedNames(ledger.db, `${tag}-`);

/** One retention loop until its first pass has pruned `until` (the last table it visits), then stopped. */
async function onePass(
  tableRetentionSeconds: Record<PrunedTable, number>,
  until: () => Promise<boolean>,
  lines: string[] = [],
) {
  const metrics = quietWorkerMetrics();
  const retention = startRetention({
    db: ledger.ctx.db,
    reporting: queues.reporting,
    logger: createLogger("retention-test", "info", { write: (line: string) => void lines.push(line) }),
    metrics,
    everyMs: 60_000,
    outboxRetentionSeconds: 7 * DAY,
    tableRetentionSeconds,
    pruneChunk: 3,
    prunePauseMs: 0,
    reportingBound: { maxAgeSeconds: 3_600, maxLength: 1_000 },
  });
  try {
    await eventually(async () => ((await until()) ? true : undefined), 30_000, "the retention pass");
  } finally {
    await retention.stop();
  }
  const pruned = await metrics.registry.getSingleMetric("wallet_retention_pruned_total")?.get();
  const outbox = await metrics.registry.getSingleMetric("wallet_outbox_pruned_total")?.get();
  return {
    pruned: Object.fromEntries((pruned?.values ?? []).map((value) => [value.labels.table, value.value])),
    outboxPruned: outbox?.values[0]?.value,
  };
}

const periods = { operator_actions: 400 * DAY, operator_api_tokens: 400 * DAY, refused_closes: 90 * DAY };

describe("the worker's retention loop", () => {
  it("prunes each table past its own period, in chunks, and counts the rows per table; young, live and unresolved rows stay", async () => {
    await seed("a");
    const tokensGone = async () => !(await names("a")).operator_api_tokens.includes("a-revoked-old");
    const counted = await onePass(periods, tokensGone);
    expect(await names("a")).toEqual({
      operator_actions: ["a-young"],
      refused_closes: ["a-resolved-recently", "a-unresolved"],
      operator_api_tokens: ["a-live", "a-revoked-recently"],
      outbox: [],
    });
    // Seven audit lines in chunks of 3 (3 + 3 + 1), all in the one pass.
    expect(counted).toEqual({
      pruned: { refused_closes: 1, operator_actions: 7, operator_api_tokens: 1 },
      outboxPruned: 5,
    });
  });

  it("a period of 0 keeps that table whole; a table the runtime may not delete from is logged and the others are still pruned", async () => {
    await seed("b");
    // An install upgraded without running the runtime grants again: no DELETE on the refusals.
    const restore = await denyRuntimeDelete(ledger, "refused_closes");
    const lines: string[] = [];
    try {
      const tokensGone = async () => !(await names("b")).operator_api_tokens.includes("b-revoked-old");
      const counted = await onePass({ ...periods, operator_actions: 0 }, tokensGone, lines);
      expect(await names("b")).toEqual({
        operator_actions: [...Array.from({ length: 7 }, (_, i) => `b-old-${i}`), "b-young"],
        refused_closes: ["b-resolved-old", "b-resolved-recently", "b-unresolved"],
        operator_api_tokens: ["b-live", "b-revoked-recently"],
        outbox: [],
      });
      expect(counted).toEqual({
        pruned: { refused_closes: 0, operator_actions: 0, operator_api_tokens: 1 },
        outboxPruned: 5,
      });
      const failed = lines.map((line) => JSON.parse(line)).filter((line) => line.part === "refused_closes");
      expect(failed.map((line) => line.msg)).toEqual([
        expect.stringMatching(/^retention of refused_closes failed; .*pnpm db:grants/),
      ]);
    } finally {
      await restore();
    }
  });
});
