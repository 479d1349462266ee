import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { defaultLedgerConfig, type LedgerContext } from "../context.ts";
import { createDatabase, type Db } from "../db.ts";
import { dropDatabase, migrateDatabase } from "../migrate.ts";
import { migratorGrants, runtimeGrants } from "../schema/privileges.ts";
import { upsertTenant } from "../verbs/upsert-tenant.ts";
import { asServerAdmin, migratorUserPrefix, runtimeUserPrefix } from "./test-users.ts";

/**
 * `test_<unix seconds>_<random>`: the time lets the test setup drop databases a crashed run left
 * behind (see scripts/vitest-services.ts) without touching those of a run in progress.
 */
export function testDatabaseName(): string {
  return `test_${Math.floor(Date.now() / 1000)}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/**
 * A migrated database of its own for one test file, dropped by `drop()`. The product runs in it as
 * the runtime user of `schema/privileges.ts` (`ctx`, and `url` for the processes a test starts), so
 * a statement the grants do not allow fails the test; `db` (and `adminUrl`) is root's, for what a
 * test itself reads, seeds or breaks.
 */
export interface TestLedger {
  ctx: LedgerContext;
  db: Db;
  url: string;
  adminUrl: string;
  drop: () => Promise<void>;
}

export async function openTestLedger(
  mysqlServerUrl: string,
  tenantIds: number[] = [1, 2],
): Promise<TestLedger> {
  const name = testDatabaseName();
  const adminUrl = new URL(name, mysqlServerUrl).toString();
  // Migrated by a migrator of its own and run by a runtime user of its own, each with exactly the
  // grants `pnpm db:grants` prints: the portability gate reads what these two users sent.
  const suffix = name.slice("test_".length);
  const migrator = {
    user: `${migratorUserPrefix}${suffix}`,
    host: "%",
    password: randomUUID().replaceAll("-", ""),
  };
  const runtime = {
    user: `${runtimeUserPrefix}${suffix}`,
    host: "%",
    password: randomUUID().replaceAll("-", ""),
  };
  await asServerAdmin(adminUrl, migratorGrants(name, migrator));
  await migrateDatabase(as(adminUrl, migrator));
  await asServerAdmin(adminUrl, runtimeGrants(name, runtime));
  const url = as(adminUrl, runtime);
  const admin = createDatabase({ url: adminUrl, poolSize: 4 });
  const database = createDatabase({ url, poolSize: 12 });
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };
  for (const id of tenantIds) await upsertTenant({ ctx, input: { id, publicKey: `public-key-${id}` } });
  return {
    ctx,
    db: admin.db,
    url,
    adminUrl,
    drop: async () => {
      await database.close();
      await admin.close();
      // By its migrator (DROP on its database), so the gate sees `dropDatabase`'s statement too;
      // by root if the migrator cannot.
      await dropDatabase(as(adminUrl, migrator)).catch(() => dropDatabase(adminUrl));
      await asServerAdmin(adminUrl, [
        `DROP USER IF EXISTS '${runtime.user}'@'%'`,
        `DROP USER IF EXISTS '${migrator.user}'@'%'`,
      ]);
    },
  };
}

/** `url` with another user's name and password. */
function as(url: string, account: { user: string; password: string }): string {
  const other = new URL(url);
  other.username = account.user;
  other.password = account.password;
  return other.toString();
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
