import type { PoolConnection, ResultSetHeader, RowDataPacket } from "mysql2/promise";
import type { BatchRequest } from "./requests.ts";
import { once, tuples } from "./sql-text.ts";
import type { BetState } from "./state.ts";
import { BatchState, idKey } from "./state.ts";

type Rows = RowDataPacket[];
interface Read {
  sql: string;
  values: unknown[];
  load: (rows: Rows, state: BatchState) => void;
}

/** Distinct tuples by their idempotency-style key (the database would treat the others as equal). */
class KeySet {
  private readonly seen = new Map<string, unknown[]>();
  add(key: string, tuple: unknown[]): void {
    if (!this.seen.has(key)) this.seen.set(key, tuple);
  }
  get size(): number {
    return this.seen.size;
  }
  values(): unknown[] {
    return [...this.seen.values()].flat();
  }
}

/**
 * The batch's first round trip: BEGIN, then every row its jobs need, the players' wallets locked
 * in one statement in index order (so two flushers can never lock each other's wallets in opposite
 * orders) and the bets they settle locked likewise. Returns the rows as the batch's state.
 */
export async function readBatch(connection: PoolConnection, jobs: BatchRequest[]): Promise<BatchState> {
  const users = new KeySet();
  const sessions = new KeySet();
  const txIds = new KeySet();
  const betIds = new KeySet();
  const rolledBackBets = new KeySet();
  const stakes = new KeySet();
  for (const job of jobs) {
    const { tenantId, request } = job;
    users.add(idKey(tenantId, request.user_id), [tenantId, request.user_id]);
    if (request.session_token !== undefined)
      sessions.add(idKey(tenantId, request.session_token), [tenantId, request.session_token]);
    if (job.kind === "BALANCE") continue;
    txIds.add(idKey(tenantId, job.request.provider_tx_id), [tenantId, job.request.provider_tx_id]);
    if (job.kind === "BET") {
      betIds.add(idKey(tenantId, job.request.provider_tx_id), [tenantId, job.request.provider_tx_id]);
      const round = `${idKey(tenantId, job.request.user_id)}\n${job.request.action_id}`;
      stakes.add(round, [tenantId, job.request.user_id, job.request.action_id]);
    } else if (job.request.withdraw_provider_tx_id !== undefined) {
      const betId = job.request.withdraw_provider_tx_id;
      betIds.add(idKey(tenantId, betId), [tenantId, betId]);
      if (job.kind === "ROLL_BACK") rolledBackBets.add(idKey(tenantId, betId), [tenantId, betId]);
    }
  }

  const reads: Read[] = [{ sql: lockPlayersSql(users.size), values: users.values(), load: loadPlayers }];
  if (sessions.size > 0)
    reads.push({ sql: sessionsSql(sessions.size), values: sessions.values(), load: loadSessions });
  if (txIds.size > 0) reads.push({ sql: recordsSql(txIds.size), values: txIds.values(), load: loadRecords });
  if (betIds.size > 0) reads.push({ sql: lockBetsSql(betIds.size), values: betIds.values(), load: loadBets });
  if (rolledBackBets.size > 0)
    reads.push({
      sql: firstRollbacksSql(rolledBackBets.size),
      values: rolledBackBets.values(),
      load: loadRecords,
    });
  if (stakes.size > 0) reads.push({ sql: stakesSql(stakes.size), values: stakes.values(), load: loadStakes });

  const text = `START TRANSACTION;\n${reads.map((read) => read.sql).join(";\n")}`;
  const [results] = (await connection.query(
    text,
    reads.flatMap((read) => read.values),
  )) as unknown as [Array<Rows | ResultSetHeader>];
  const state = new BatchState();
  reads.forEach((read, index) => {
    read.load(results[index + 1] as Rows, state);
  });
  return state;
}

const lockPlayersSql = (count: number) =>
  once(
    "lock-players",
    count,
    (n) =>
      "SELECT p.id, p.tenant_id, p.user_id, p.username, p.currency, p.maxbet, p.minbet, p.maxwin," +
      " w.id AS wallet_id, w.currency AS wallet_currency, w.balance" +
      ` FROM players p LEFT JOIN wallets w ON w.player_id = p.id WHERE (p.tenant_id, p.user_id) IN (${tuples(n, 2)})` +
      " FOR UPDATE",
  );

function loadPlayers(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    const key = idKey(Number(row.tenant_id), String(row.user_id));
    let player = state.players.get(key);
    if (!player) {
      player = {
        id: Number(row.id),
        tenantId: Number(row.tenant_id),
        userId: String(row.user_id),
        username: String(row.username),
        currency: String(row.currency),
        maxbet: BigInt(row.maxbet),
        minbet: row.minbet === null ? null : BigInt(row.minbet),
        maxwin: row.maxwin === null ? null : BigInt(row.maxwin),
        wallets: new Map(),
      };
      state.players.set(key, player);
    }
    if (row.wallet_id !== null) {
      const currency = String(row.wallet_currency);
      player.wallets.set(currency, { id: Number(row.wallet_id), currency, balance: BigInt(row.balance) });
    }
  }
}

const sessionsSql = (count: number) =>
  once(
    "sessions",
    count,
    (n) =>
      "SELECT tenant_id, session_token, player_id, expires_at > CURRENT_TIMESTAMP(3) AS live" +
      ` FROM game_sessions WHERE (tenant_id, session_token) IN (${tuples(n, 2)})`,
  );

function loadSessions(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    state.sessions.set(idKey(Number(row.tenant_id), String(row.session_token)), {
      playerId: Number(row.player_id),
      live: Number(row.live) === 1,
    });
  }
}

const recordColumns = "r.tenant_id, r.provider_tx_id, r.body_sha256, r.status, r.response";
const recordsSql = (count: number) =>
  once(
    "records",
    count,
    (n) =>
      `SELECT ${recordColumns} FROM idempotency_records r WHERE (r.tenant_id, r.provider_tx_id) IN (${tuples(n, 2)})`,
  );
/** The stored answer of each rolled-back bet's first ROLL_BACK: a later one replays it. */
const firstRollbacksSql = (count: number) =>
  once(
    "first-rollbacks",
    count,
    (n) =>
      `SELECT ${recordColumns} FROM bets b JOIN idempotency_records r` +
      " ON r.tenant_id = b.tenant_id AND r.provider_tx_id = b.rollback_provider_tx_id" +
      ` WHERE (b.tenant_id, b.provider_tx_id) IN (${tuples(n, 2)})`,
  );

function loadRecords(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    state.records.set(idKey(Number(row.tenant_id), String(row.provider_tx_id)), {
      bodySha256: String(row.body_sha256),
      status: Number(row.status),
      response: String(row.response),
    });
  }
}

const lockBetsSql = (count: number) =>
  once(
    "lock-bets",
    count,
    (n) =>
      "SELECT id, tenant_id, provider_tx_id, player_id, round_id, game, currency, kind, amount, status," +
      " won_amount, win_count, free_bet_grant_id, rollback_provider_tx_id" +
      ` FROM bets WHERE (tenant_id, provider_tx_id) IN (${tuples(n, 2)}) FOR UPDATE`,
  );

function loadBets(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    const bet: BetState = {
      id: Number(row.id),
      tenantId: Number(row.tenant_id),
      providerTxId: String(row.provider_tx_id),
      playerId: Number(row.player_id),
      roundId: String(row.round_id),
      game: String(row.game),
      currency: String(row.currency),
      kind: row.kind,
      amount: BigInt(row.amount),
      status: row.status,
      wonAmount: BigInt(row.won_amount),
      winCount: Number(row.win_count),
      freeBetGrantId: row.free_bet_grant_id === null ? null : Number(row.free_bet_grant_id),
      rollbackProviderTxId: row.rollback_provider_tx_id === null ? null : String(row.rollback_provider_tx_id),
    };
    state.bets.set(idKey(bet.tenantId, bet.providerTxId), bet);
  }
}

/**
 * Real money already staked in each round a BET of the batch joins (maxbet is per round). The
 * wanted (tenant, user, round) triples are a derived table, so each is two index lookups.
 */
const stakesSql = (count: number) =>
  once(
    "stakes",
    count,
    (n) =>
      "SELECT q.t AS tenant_id, q.u AS user_id, q.r AS round_id, SUM(b.amount) AS staked FROM (" +
      Array.from({ length: n }, (_, index) =>
        index === 0 ? "SELECT ? AS t, ? AS u, ? AS r" : "SELECT ?, ?, ?",
      ).join(" UNION ALL ") +
      ") q JOIN players p ON p.tenant_id = q.t AND p.user_id = q.u" +
      " JOIN bets b ON b.player_id = p.id AND b.round_id = q.r" +
      " WHERE b.kind = 'BET' AND b.status IN ('open', 'won') GROUP BY q.t, q.u, q.r",
  );

function loadStakes(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    const player = state.player(Number(row.tenant_id), String(row.user_id));
    if (player) state.setStaked(player.id, String(row.round_id), BigInt(row.staked ?? 0));
  }
}
