import { randomUUID } from "node:crypto";
import { sha256Hex } from "@wallet/contracts/hash";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import type { CallbackInput } from "../callback-input.ts";
import { defaultLedgerConfig, type LedgerContext } from "../context.ts";
import { createDatabase, type Db } from "../db.ts";
import { dropDatabase, migrateDatabase } from "../migrate.ts";
import type { Outcome } from "../outcome.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { wallets } from "../schema/wallets.ts";
import { createPlayer, mintUserToken, upsertTenant } from "../verbs/admin.ts";
import { authenticate } from "../verbs/authenticate.ts";
import { deposit } from "../verbs/deposit.ts";
import { withdraw } from "../verbs/withdraw.ts";

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

export interface TestPlayer {
  tenantId: number;
  userId: string;
  playerId: number;
  sessionToken: string;
  currency: string;
}

/** A player with a wallet, a minted user token and a session bound through the real `/auth` verb. */
export async function playerWithSession(
  ledger: TestLedger,
  options: {
    balance?: bigint;
    maxbet?: bigint;
    minbet?: bigint;
    maxwin?: bigint;
    currency?: string;
    tenantId?: number;
  } = {},
): Promise<TestPlayer> {
  const tenantId = options.tenantId ?? 1;
  const currency = options.currency ?? "EUR";
  const { playerId, userId } = await createPlayer({
    ctx: ledger.ctx,
    input: {
      tenantId,
      username: `player-${randomUUID().slice(0, 8)}`,
      currency,
      balance: options.balance ?? 100_000n,
      maxbet: options.maxbet ?? 1_000_000n,
      minbet: options.minbet,
      maxwin: options.maxwin,
    },
  });
  const { userToken } = await mintUserToken({
    ctx: ledger.ctx,
    input: { tenantId, userId, ttlSeconds: 3600 },
  });
  const sessionToken = `session-${randomUUID()}`;
  const auth = await authenticate({
    ctx: ledger.ctx,
    input: {
      tenantId,
      body: { user_token: userToken, session_token: sessionToken, platform: "desktop", currency },
    },
  });
  if (auth.status !== 200) throw new Error(`fixture /auth failed: ${auth.body}`);
  return { tenantId, userId, playerId, sessionToken, currency };
}

/** A callback as the gateway hands it over: parsed body plus the hash of the exact raw bytes. */
export function callbackInput(
  tenantId: number,
  body: Record<string, unknown>,
  raw = JSON.stringify(body),
): CallbackInput {
  return { tenantId, body: JSON.parse(raw), bodySha256: sha256Hex(raw) };
}

export interface Answer {
  status: number;
  raw: string;
  json: { code: number; message: string; data?: Record<string, unknown> };
  replayed: boolean;
  /** The anomalies the worker counts (`wallet_anomalies_total`); never in the body. */
  anomalies: string[];
}

function toAnswer(outcome: Outcome): Answer {
  return {
    status: outcome.status,
    raw: outcome.body,
    json: JSON.parse(outcome.body),
    replayed: outcome.replayed,
    anomalies: [...(outcome.anomalies ?? [])],
  };
}

export async function sendWithdraw(
  ledger: TestLedger,
  body: Record<string, unknown>,
  tenantId = 1,
  raw?: string,
) {
  return toAnswer(await withdraw({ ctx: ledger.ctx, input: callbackInput(tenantId, body, raw) }));
}

export async function sendDeposit(
  ledger: TestLedger,
  body: Record<string, unknown>,
  tenantId = 1,
  raw?: string,
) {
  return toAnswer(await deposit({ ctx: ledger.ctx, input: callbackInput(tenantId, body, raw) }));
}

let sequence = 0;
export function txId(prefix = "tx"): string {
  sequence += 1;
  return `${prefix}-${sequence}-${randomUUID().slice(0, 8)}`;
}

/** A BET body for the player; `over` replaces any field. */
export function betBody(player: TestPlayer, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    currency: player.currency,
    amount: 1_000,
    provider: "platform-sim",
    provider_tx_id: txId("bet"),
    game: "crashGame",
    action: "BET",
    action_id: "round-1",
    session_token: player.sessionToken,
    platform: "desktop",
    user_id: player.userId,
    attributes: [],
    ...over,
  };
}

/** A /deposit body settling `bet` with `action` (WIN, FREE_BET_WIN, ROLL_BACK). */
export function settleBody(
  player: TestPlayer,
  bet: Record<string, unknown>,
  action: "WIN" | "FREE_BET_WIN" | "ROLL_BACK",
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...betBody(player),
    action,
    amount: action === "ROLL_BACK" ? bet.amount : 2_000,
    provider_tx_id: txId(action.toLowerCase()),
    withdraw_provider_tx_id: bet.provider_tx_id,
    action_id: bet.action_id,
    game: bet.game,
    ...over,
  };
}

export function closeRoundBody(roundId: string, stakes: number[], coefficients: number[], operatorId = 1) {
  return {
    amount: 0,
    provider: "platform-sim",
    provider_tx_id: `${roundId}-${operatorId}-close-round`,
    game: "crashGame",
    action: "CLOSE_ROUND",
    action_id: roundId,
    attributes: [
      { name: "crashGameCashOutCoefficients", value: JSON.stringify(coefficients) },
      { name: "crashGameBets", value: JSON.stringify(stakes) },
    ],
  };
}

export async function balanceOf(ledger: TestLedger, playerId: number): Promise<bigint> {
  const [row] = await ledger.db
    .select({ balance: wallets.balance })
    .from(wallets)
    .where(eq(wallets.playerId, playerId));
  if (!row) throw new Error(`no wallet for player ${playerId}`);
  return row.balance;
}

export async function journalOf(ledger: TestLedger, playerId: number) {
  return ledger.db
    .select({
      kind: journalEntries.kind,
      amount: journalEntries.amount,
      balanceAfter: journalEntries.balanceAfter,
      providerTxId: journalEntries.providerTxId,
      operatorTxId: journalEntries.operatorTxId,
      roundId: journalEntries.roundId,
      anomaly: journalEntries.anomaly,
    })
    .from(journalEntries)
    .where(eq(journalEntries.playerId, playerId))
    .orderBy(asc(journalEntries.id));
}

const countedTables = [
  "idempotency_records",
  "journal_entries",
  "bets",
  "outbox",
  "operator_actions",
  "refused_closes",
  "round_closes",
  "round_reports",
  "side_effect_receipts",
] as const;

/** Rows in a ledger table, optionally only those of one `provider_tx_id`: for "nothing was written" checks. */
export async function countRows(
  ledger: TestLedger,
  table: (typeof countedTables)[number],
  providerTxId?: string,
): Promise<number> {
  if (!countedTables.includes(table)) throw new Error(`not a countable table: ${table}`);
  const where = providerTxId === undefined ? sql`` : sql` WHERE provider_tx_id = ${providerTxId}`;
  const [rows] = (await ledger.db.execute(
    sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)}${where}`,
  )) as unknown as [Array<{ n: number | string }>];
  return Number(rows[0]?.n);
}

type Rows<T> = [T[]];

/** Rounds whose CLOSE_ROUND was recorded before one of the round's bets or money movements. */
export async function closesBeforeTheirCallbacks(ledger: TestLedger): Promise<string[]> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT rc.round_id AS roundId FROM round_closes rc
    WHERE EXISTS (SELECT 1 FROM journal_entries j
                  WHERE j.tenant_id = rc.tenant_id AND j.round_id = rc.round_id AND j.created_at > rc.created_at)
       OR EXISTS (SELECT 1 FROM bets b
                  WHERE b.tenant_id = rc.tenant_id AND b.round_id = rc.round_id AND b.created_at > rc.created_at)`)) as unknown as Rows<{
    roundId: string;
  }>;
  return rows.map((row) => row.roundId);
}

/**
 * Real money a player staked per closed round (net of rollbacks), straight from the journal: what
 * loyalty is earned on, since points are awarded when the round's CLOSE_ROUND is applied.
 */
export async function stakesByRound(ledger: TestLedger, playerId: number): Promise<bigint[]> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT SUM(-j.amount) AS staked FROM journal_entries j
    WHERE j.player_id = ${playerId} AND j.kind IN ('BET', 'ROLL_BACK')
      AND EXISTS (SELECT 1 FROM round_closes rc WHERE rc.tenant_id = j.tenant_id AND rc.round_id = j.round_id)
    GROUP BY j.round_id`)) as unknown as Rows<{
    staked: string;
  }>;
  return rows.map((row) => BigInt(row.staked));
}

/** Outbox rows whose side effect has not been applied yet. */
export async function unappliedOutboxRows(ledger: TestLedger): Promise<number> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT COUNT(*) AS n FROM outbox WHERE applied_at IS NULL`,
  )) as unknown as Rows<{
    n: string | number;
  }>;
  return Number(rows[0]?.n);
}

/** The newest outbox row owing a topic's effect: what the relay publishes (tests republish it by hand). */
export async function latestOutboxRow(
  ledger: TestLedger,
  topic: string,
): Promise<{ eventId: string; payload: unknown }> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT event_id, payload FROM outbox WHERE topic IN (${topic}, 'all') ORDER BY id DESC LIMIT 1`,
  )) as unknown as Rows<{ event_id: string; payload: string }>;
  const row = rows[0];
  if (!row) throw new Error(`no outbox row for ${topic}`);
  return { eventId: row.event_id, payload: JSON.parse(row.payload) };
}

/**
 * Holds a player's wallet row lock from a connection of the test's own, in an open transaction,
 * until `release` rolls it back: what a long-running concurrent transaction looks like to a verb.
 */
export async function holdWalletLock(
  ledger: TestLedger,
  playerId: number,
): Promise<{ release: () => Promise<void> }> {
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection(ledger.url);
  await connection.query("START TRANSACTION");
  await connection.query("SELECT balance FROM wallets WHERE player_id = ? FOR UPDATE", [playerId]);
  return {
    release: async () => {
      await connection.query("ROLLBACK").catch(() => {});
      await connection.end();
    },
  };
}

/** Deadlocks InnoDB has detected since the server started (MariaDB's `Innodb_deadlocks`). */
export async function serverDeadlocks(ledger: TestLedger): Promise<number> {
  const [rows] = (await ledger.db.execute(
    sql`SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'`,
  )) as unknown as Rows<{ Value: string }>;
  return Number(rows[0]?.Value ?? 0);
}

/** The round a tenant's platform opened last (what its bets are being placed in right now). */
export async function newestRound(ledger: TestLedger, tenantId: number): Promise<string | undefined> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT round_id FROM rounds WHERE tenant_id = ${tenantId} AND closed_at IS NULL ORDER BY created_at DESC LIMIT 1`,
  )) as unknown as Rows<{ round_id: string }>;
  return rows[0]?.round_id;
}

/**
 * A transaction of the test's own that takes a round's row lock, then the wallets of `playerIds`, in
 * the opposite order to a bet (wallet first, then the round's row): a deadlock with every bet of that
 * round in flight. InnoDB rolls back the lighter transaction (fewest undo records and locks), so this
 * one first locks every journal row, which no ledger transaction ever locks, to weigh more than a bet:
 * the bets are the victims. Resolves with whether it was the victim anyway.
 */
export async function lockRoundThenWallets(
  ledger: TestLedger,
  tenantId: number,
  roundId: string,
  playerIds: number[],
  holdMs: number,
): Promise<"victim" | "held"> {
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection(ledger.url);
  try {
    await connection.query("SET SESSION innodb_lock_wait_timeout = 5");
    await connection.query("START TRANSACTION");
    await connection.query("SELECT id FROM journal_entries FOR UPDATE");
    await connection.query("SELECT round_id FROM rounds WHERE tenant_id = ? AND round_id = ? FOR UPDATE", [
      tenantId,
      roundId,
    ]);
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    await connection.query("SELECT id FROM wallets WHERE player_id IN (?) FOR UPDATE", [playerIds]);
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    return "held";
  } catch (error) {
    if ((error as { errno?: number }).errno === 1213 || (error as { errno?: number }).errno === 1205)
      return "victim";
    throw error;
  } finally {
    await connection.query("ROLLBACK").catch(() => {});
    await connection.end();
  }
}

/** The tables whose rows carry a `tenant_id`: what `tenantFootprint` counts. */
const tenantTables = [
  "players",
  "user_tokens",
  "game_sessions",
  "free_bet_grants",
  "journal_entries",
  "bets",
  "rounds",
  "operator_actions",
  "refused_closes",
  "round_closes",
  "outbox",
  "idempotency_records",
] as const;
export type TenantTable = (typeof tenantTables)[number];

/** Rows each table holds for one tenant: for "a callback under another tenant's key wrote nothing" checks. */
export async function tenantFootprint(
  ledger: TestLedger,
  tenantId: number,
): Promise<Record<TenantTable, number>> {
  const footprint = {} as Record<TenantTable, number>;
  for (const table of tenantTables) {
    const [rows] = (await ledger.db.execute(
      sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)} WHERE tenant_id = ${tenantId}`,
    )) as unknown as Rows<{ n: number | string }>;
    footprint[table] = Number(rows[0]?.n);
  }
  return footprint;
}

/** The HTTP status stored under each of a tenant's idempotency keys that has one. */
export async function storedStatuses(
  ledger: TestLedger,
  tenantId: number,
  providerTxIds: string[],
): Promise<Record<string, number>> {
  if (providerTxIds.length === 0) return {};
  const [rows] = (await ledger.db.execute(sql`
    SELECT provider_tx_id AS providerTxId, status FROM idempotency_records
    WHERE tenant_id = ${tenantId} AND provider_tx_id IN (${sql.join(
      providerTxIds.map((id) => sql`${id}`),
      sql`, `,
    )})`)) as unknown as Rows<{ providerTxId: string; status: number | string }>;
  return Object.fromEntries(rows.map((row) => [row.providerTxId, Number(row.status)]));
}

/** A player's responsible-gaming counters summed over every day: what the `rg` side effect added up. */
export async function rgTotals(
  ledger: TestLedger,
  playerId: number,
): Promise<{ staked: bigint; rounds: number }> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT COALESCE(SUM(staked), 0) AS staked, COALESCE(SUM(rounds), 0) AS rounds FROM rg_daily WHERE player_id = ${playerId}`,
  )) as unknown as Rows<{ staked: string; rounds: string }>;
  return { staked: BigInt(rows[0]?.staked ?? 0), rounds: Number(rows[0]?.rounds ?? 0) };
}

/** What the database holds for an operator-API token: its hash (never the token). */
export async function storedOperatorTokenHash(
  ledger: TestLedger,
  publicId: string,
): Promise<string | undefined> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT token_hash FROM operator_api_tokens WHERE public_id = ${publicId}`,
  )) as unknown as Rows<{ token_hash: string }>;
  return rows[0]?.token_hash;
}

/** The session tokens stored for a player, as stored (their hashes, since migration 0010). */
export async function storedSessionTokens(ledger: TestLedger, playerId: number): Promise<string[]> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT session_token FROM game_sessions WHERE player_id = ${playerId}`,
  )) as unknown as Rows<{ session_token: string }>;
  return rows.map((row) => row.session_token);
}
