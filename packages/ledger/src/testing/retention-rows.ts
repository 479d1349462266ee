import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { databaseName } from "../migrate.ts";
import type { PrunedTable } from "../retention/prune-expired.ts";
import type { TestLedger } from "./test-ledger.ts";
import { asServerAdmin } from "./test-users.ts";

/**
 * TEST HELPERS for retention: rows of the tables it prunes, with their times in the past (seeded as
 * root: the product never writes a past time), and what is left of them.
 */
const DAY = 86_400;
const ago = (days: number) => sql`CURRENT_TIMESTAMP(3) - INTERVAL ${Math.round(days * DAY)} SECOND`;
const agoOrNull = (days: number | null) => (days === null ? sql`NULL` : ago(days));

/** An audit line written `daysAgo` days ago, its `subject` the name to find it by. */
export async function seedOperatorAction(db: Db, subject: string, daysAgo: number, tenantId = 1) {
  await db.execute(sql`
    INSERT INTO operator_actions (tenant_id, action, subject, actor, detail, created_at)
    VALUES (${tenantId}, 'launch', ${subject}, 'token:abc', '{}', ${ago(daysAgo)})`);
}

/** `count` audit lines `<prefix>1…`, written `daysAgo` days ago, inserted server-side in one statement. */
export async function seedOperatorActions(db: Db, prefix: string, count: number, daysAgo: number) {
  await db.execute(sql`
    INSERT INTO operator_actions (tenant_id, action, subject, actor, detail, created_at)
    SELECT 1, 'launch', CONCAT(${prefix}, seq), 'token:abc', '{}', ${ago(daysAgo)}
    FROM seq_1_to_${sql.raw(String(count))}`);
}

/** A refused close named `name` (its round id), refused and resolved (null: never) so many days ago. */
export async function seedRefusedClose(
  db: Db,
  name: string,
  days: { refused: number; resolved: number | null },
) {
  await db.execute(sql`
    INSERT INTO refused_closes (tenant_id, body_sha256, round_id, reason, message, body, created_at, resolved_at, resolution)
    VALUES (1, SHA2(${name}, 256), ${name}, 'misaligned', 'arrays differ', '{}', ${ago(days.refused)},
            ${agoOrNull(days.resolved)}, ${days.resolved === null ? null : "manual close"})`);
}

/**
 * A resolved refused close named `name` whose body in its row is `bodyBytes` of ASCII, resolved
 * `resolvedDaysAgo` days ago; with `pieces`, its body is said to be in that many `close_pieces`, one
 * of which (1,000 bytes) is written.
 */
export async function seedRefusedCloseOfSize(
  db: Db,
  name: string,
  resolvedDaysAgo: number,
  bodyBytes: number,
  pieces = 0,
) {
  await db.execute(sql`
    INSERT INTO refused_closes (tenant_id, body_sha256, round_id, reason, message, body, body_pieces, body_bytes, resolved_at, resolution)
    VALUES (1, SHA2(${name}, 256), ${name}, 'misaligned', 'arrays differ', REPEAT('x', ${bodyBytes}), ${pieces},
            ${pieces > 0 ? pieces * 131_072 : null}, ${ago(resolvedDaysAgo)}, 'manual close')`);
  if (pieces > 0)
    await db.execute(sql`
      INSERT INTO close_pieces (tenant_id, body_sha256, part, seq, bytes)
      VALUES (1, SHA2(${name}, 256), 'body', 0, REPEAT('y', 1000))`);
}

/** Pieces left under a refused close's name (its body's key, as `seedRefusedCloseOfSize` writes it). */
export async function piecesLeft(db: Db, name: string): Promise<number> {
  const [rows] = (await db.execute(
    sql`SELECT COUNT(*) AS n FROM close_pieces WHERE tenant_id = 1 AND body_sha256 = SHA2(${name}, 256)`,
  )) as unknown as [Array<{ n: number | string }>];
  return Number(rows[0]?.n ?? 0);
}

/** `count` unresolved refused closes `<prefix>1…`, refused `daysAgo` days ago, in one statement. */
export async function seedOpenRefusedCloses(db: Db, prefix: string, count: number, daysAgo: number) {
  await db.execute(sql`
    INSERT INTO refused_closes (tenant_id, body_sha256, round_id, reason, message, body, created_at)
    SELECT 1, SHA2(CONCAT(${prefix}, seq), 256), CONCAT(${prefix}, seq), 'misaligned', 'm', '{}', ${ago(daysAgo)}
    FROM seq_1_to_${sql.raw(String(count))}`);
}

/** An operator-API token labelled `label`, made 900 days ago, revoked so many days ago (null: live). */
export async function seedOperatorToken(db: Db, label: string, revokedDaysAgo: number | null) {
  await db.execute(sql`
    INSERT INTO operator_api_tokens (public_id, token_hash, tenant_id, scope, label, created_at, revoked_at)
    VALUES (LEFT(SHA2(${label}, 256), 12), SHA2(CONCAT('secret-', ${label}), 256), 1, 'write', ${label},
            ${ago(900)}, ${agoOrNull(revokedDaysAgo)})`);
}

/** The names (subject, round id, label, event id) left in each pruned table and the outbox, starting with `prefix`. */
export async function retainedNames(
  db: Db,
  prefix: string,
): Promise<Record<PrunedTable | "outbox", string[]>> {
  const read = async (query: SQL) => {
    const [rows] = (await db.execute(query)) as unknown as [Array<{ v: string }>];
    return rows.map((row) => String(row.v)).filter((name) => name.startsWith(prefix));
  };
  return {
    operator_actions: await read(sql`SELECT subject AS v FROM operator_actions ORDER BY subject`),
    refused_closes: await read(sql`SELECT round_id AS v FROM refused_closes ORDER BY round_id`),
    operator_api_tokens: await read(sql`SELECT label AS v FROM operator_api_tokens ORDER BY label`),
    outbox: await read(sql`SELECT event_id AS v FROM outbox ORDER BY event_id`),
  };
}

/** Rows in each pruned table, whoever wrote them. */
export async function prunedTableCounts(db: Db): Promise<Record<PrunedTable, number>> {
  const [rows] = (await db.execute(sql`
    SELECT (SELECT COUNT(*) FROM operator_actions) AS operator_actions,
           (SELECT COUNT(*) FROM refused_closes) AS refused_closes,
           (SELECT COUNT(*) FROM operator_api_tokens) AS operator_api_tokens`)) as unknown as [
    Array<Record<PrunedTable, number | string>>,
  ];
  const [row] = rows;
  return {
    operator_actions: Number(row?.operator_actions),
    refused_closes: Number(row?.refused_closes),
    operator_api_tokens: Number(row?.operator_api_tokens),
  };
}

/**
 * Takes DELETE on `table` from the test ledger's runtime user, as on an install upgraded without its
 * runtime grants run again; the returned function gives it back.
 */
export async function denyRuntimeDelete(
  ledger: TestLedger,
  table: PrunedTable,
): Promise<() => Promise<void>> {
  const runtime = new URL(ledger.url).username;
  const on = `\`${databaseName(ledger.url)}\`.\`${table}\``;
  await asServerAdmin(ledger.adminUrl, [`REVOKE DELETE ON ${on} FROM '${runtime}'@'%'`]);
  return () => asServerAdmin(ledger.adminUrl, [`GRANT DELETE ON ${on} TO '${runtime}'@'%'`]);
}
