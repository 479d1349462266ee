import { randomUUID } from "node:crypto";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { dropDatabase, migrateDatabase } from "@wallet/ledger/migrate";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { outboxBacklog, pruneAppliedOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { seedClosedRound, seedOutbox } from "@wallet/ledger/testing/outbox-seed";
import { readBenchEnv } from "./env.ts";

/**
 * `pnpm bench:outbox-retention`: the outbox at the size a busy operator reaches
 * in days. Seeds BENCH_OUTBOX_ROWS (2,000,000) applied rows, 8 days old, in a database of its own;
 * times `GET /v1/rounds/:id`'s read and the backlog gauge's (median and max of 50 calls each); then
 * times the pruner deleting them all in its chunks, with the longest single chunk (what a callback
 * touching the outbox could wait behind). Prints the numbers; never fails on them.
 */
const env = readBenchEnv();
const url = new URL(env.DATABASE_URL);
url.pathname = `/${env.BENCH_DATABASE}_outbox_${randomUUID().slice(0, 8)}`;
const database = createDatabase({ url: url.toString(), poolSize: 2 });
const ctx = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };

async function timed(label: string, calls: number, work: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let call = 0; call < calls; call++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(
    `  ${label}: median ${median.toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms over ${calls} calls`,
  );
}

try {
  await migrateDatabase(url.toString());
  const rows = env.BENCH_OUTBOX_ROWS;
  let started = performance.now();
  // Ids shaped like real close events, so the unique (topic, event_id) index is as deep as in production.
  await seedOutbox(database.db, "close-round:1:old-round-", rows, { applied: 8, published: 8 });
  await seedClosedRound(database.db, 1, "the-round");
  await seedOutbox(database.db, "pending-", 20, { applied: null, published: 0 });
  console.log(
    `seeded ${rows} applied outbox rows (8 days old) and 20 pending in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await timed("GET /v1/rounds/:id read (roundStatus)", 50, () =>
    roundStatus({ ctx, input: { tenantId: 1, roundId: "the-round" } }),
  );
  await timed("backlog gauge (outboxBacklog)", 50, () => outboxBacklog(database.db));
  started = performance.now();
  let deleted = 0;
  let longest = 0;
  for (;;) {
    const chunkStarted = performance.now();
    const count = await pruneAppliedOutbox(database.db, 7 * 86_400, 500);
    longest = Math.max(longest, performance.now() - chunkStarted);
    deleted += count;
    if (count < 500) break;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `pruned ${deleted} rows in ${seconds.toFixed(1)} s (${Math.round(deleted / seconds)} rows/s, chunks of 500, no pause), longest chunk ${longest.toFixed(1)} ms`,
  );
  const backlog = await outboxBacklog(database.db);
  console.log(`left: ${backlog.pending} pending rows (the 20 unapplied and the round's 1, untouched)`);
} finally {
  await database.close();
  await dropDatabase(url.toString());
}
