import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { defaultLedgerConfig, type LedgerContext } from "../context.ts";
import { createDatabase, type Db } from "../db.ts";
import { dropDatabase, migrateDatabase } from "../migrate.ts";
import { upsertTenant } from "../verbs/upsert-tenant.ts";

/**
 * `test_<unix seconds>_<random>`: the time lets the test setup drop databases a crashed run left
 * behind (see scripts/vitest-services.ts) without touching those of a run in progress.
 */
export function testDatabaseName(): string {
  return `test_${Math.floor(Date.now() / 1000)}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/** A migrated database of its own for one test file, dropped by `drop()`. */
export interface TestLedger {
  ctx: LedgerContext;
  db: Db;
  url: string;
  drop: () => Promise<void>;
}

export async function openTestLedger(
  mysqlServerUrl: string,
  tenantIds: number[] = [1, 2],
): Promise<TestLedger> {
  const url = new URL(testDatabaseName(), mysqlServerUrl).toString();
  await migrateDatabase(url);
  const database = createDatabase({ url, poolSize: 12 });
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };
  for (const id of tenantIds) await upsertTenant({ ctx, input: { id, publicKey: `public-key-${id}` } });
  return {
    ctx,
    db: database.db,
    url,
    drop: async () => {
      await database.close();
      await dropDatabase(url);
    },
  };
}

/**
 * Registers this test file's database: created and migrated before its tests, dropped after.
 * The returned object is filled in by `beforeAll`, so use it inside tests only.
 */
export function useTestLedger(tenantIds?: number[]): TestLedger {
  const ledger = {} as TestLedger;
  beforeAll(async () => {
    Object.assign(ledger, await openTestLedger(inject("mysqlServerUrl"), tenantIds));
  });
  afterAll(async () => {
    await ledger.drop?.();
  });
  return ledger;
}

/** What `db.execute` of a SELECT resolves to: its rows first (the test reads' raw SQL). */
export type Rows<T> = [T[]];
