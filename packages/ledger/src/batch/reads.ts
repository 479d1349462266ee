import { tokenHash } from "@wallet/contracts/hash";
import type { PoolConnection, RowDataPacket } from "mysql2/promise";
import type { LedgerTestHooks } from "../context.ts";
import { beginAndRead, type Read as MultiRead } from "../sql/multi-statement.ts";
import { once, tuples } from "../sql/sql-text.ts";
import { unguardedBegin } from "./planted-bugs.ts";
import type { BatchRequest } from "./requests.ts";
import type { BetState } from "./state.ts";
import { BatchState, idKey } from "./state.ts";

type Rows = RowDataPacket[];
type Read = MultiRead<BatchState>;

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
 * The batch's first round trip: BEGIN, then every row its calls need, the players' wallets locked
 * in one statement in index order (so two flushers can never lock each other's wallets in opposite
 * orders) and the bets they settle locked likewise. Returns the rows as the batch's state. Two planted
 * bugs (test hooks, never set in production) leave out a lookup or a lock: `LedgerTestHooks`.
 */
export async function readBatch(
  connection: PoolConnection,
  calls: BatchRequest[],
  hooks?: Pick<LedgerTestHooks, "skipIdempotencyLookup" | "unlockedWalletRead" | "unguardedPacket">,
): Promise<BatchState> {
  const lookUpOwnIds = hooks?.skipIdempotencyLookup !== true;
  const users = new KeySet();
  const sessions = new KeySet();
  const txIds = new KeySet();
  const betIds = new KeySet();
  const rolledBackBets = new KeySet();
  const stakes = new KeySet();
  const freeBetRounds = new KeySet();
  const closes = new KeySet();
  /** Every round the batch books into or closes, with its game: made to exist, then locked. */
  const roundRows = new Map<string, [number, string, string]>();
  for (const call of calls) {
    if (call.kind === "CLOSE") {
      if (lookUpOwnIds)
        txIds.add(idKey(call.tenantId, call.request.provider_tx_id), [
          call.tenantId,
          call.request.provider_tx_id,
        ]);
      closes.add(idKey(call.tenantId, call.request.action_id), [call.tenantId, call.request.action_id]);
      // Locked here with the money lines' rounds, in one key order: never later, out of order.
      roundRows.set(idKey(call.tenantId, call.request.action_id), [
        call.tenantId,
        call.request.action_id,
        call.request.game,
      ]);
      continue;
    }
    const { tenantId, request } = call;
    users.add(idKey(tenantId, request.user_id), [tenantId, request.user_id]);
    if (request.session_token !== undefined) {
      // Sessions are stored and looked up by their token's hash (`state.session`).
      const hash = tokenHash(request.session_token);
      sessions.add(idKey(tenantId, hash), [tenantId, hash]);
    }
    if (call.kind === "BALANCE") continue;
    roundRows.set(idKey(tenantId, call.request.action_id), [
      tenantId,
      call.request.action_id,
      call.request.game,
    ]);
    if (lookUpOwnIds)
      txIds.add(idKey(tenantId, call.request.provider_tx_id), [tenantId, call.request.provider_tx_id]);
    if (call.kind === "BET") {
      if (lookUpOwnIds)
        betIds.add(idKey(tenantId, call.request.provider_tx_id), [tenantId, call.request.provider_tx_id]);
      const round = `${idKey(tenantId, call.request.user_id)}\n${call.request.action_id}`;
      stakes.add(round, [tenantId, call.request.user_id, call.request.action_id]);
    } else if (call.request.withdraw_provider_tx_id !== undefined) {
      const betId = call.request.withdraw_provider_tx_id;
      betIds.add(idKey(tenantId, betId), [tenantId, betId]);
      if (call.kind === "ROLL_BACK") rolledBackBets.add(idKey(tenantId, betId), [tenantId, betId]);
    } else {
      // A FREE_BET_WIN that names no bet settles a FREE_BET of the player in its round.
      const round = `${idKey(tenantId, call.request.user_id)}\n${call.request.action_id}`;
      freeBetRounds.add(round, [tenantId, call.request.user_id, call.request.action_id]);
    }
  }

  const reads: Read[] = [];
  if (users.size > 0)
    reads.push({
      sql: playersSql(users.size, hooks?.unlockedWalletRead !== true),
      values: users.values(),
      load: loadPlayers,
    });
  if (roundRows.size > 0) reads.push(...lockRounds([...roundRows.values()]));
  if (txIds.size + rolledBackBets.size + sessions.size + closes.size > 0) {
    reads.push({
      sql: lookupsSql(txIds.size, rolledBackBets.size, sessions.size, closes.size),
      values: [
        ...txIds.values(),
        ...rolledBackBets.values(),
        ...sessions.values(),
        ...closes.values(),
        ...closes.values(),
      ],
      load: loadLookups,
    });
  }
  if (betIds.size > 0) reads.push({ sql: lockBetsSql(betIds.size), values: betIds.values(), load: loadBets });
  if (stakes.size > 0) reads.push({ sql: stakesSql(stakes.size), values: stakes.values(), load: loadStakes });
  if (freeBetRounds.size > 0)
    reads.push({ sql: freeBetsSql(freeBetRounds.size), values: freeBetRounds.values(), load: loadBets });

  if (hooks?.unguardedPacket) return beginAndRead(connection, reads, new BatchState(), unguardedBegin);
  return beginAndRead(connection, reads, new BatchState());
}

/** The players and their wallets, locked; `lock` false only under a planted bug (`unlockedWalletRead`). */
const playersSql = (count: number, lock: boolean) =>
  once(
    lock ? "lock-players" : "players-unlocked",
    count,
    (n) =>
      "SELECT p.id, p.tenant_id, p.user_id, p.username, p.currency, p.maxbet, p.minbet, p.maxwin," +
      " w.id AS wallet_id, w.currency AS wallet_currency, w.balance, w.seq AS wallet_seq" +
      ` FROM players p LEFT JOIN wallets w ON w.player_id = p.id WHERE (p.tenant_id, p.user_id) IN (${tuples(n, 2)})` +
      (lock ? " FOR UPDATE" : ""),
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
      player.wallets.set(currency, {
        id: Number(row.wallet_id),
        currency,
        balance: BigInt(row.balance),
        seq: Number(row.wallet_seq),
      });
    }
  }
}

/**
 * Every round the batch books into or closes is made to exist, then locked, before anything is
 * decided: the lock is what orders a money line against its round's close. A line whose batch holds
 * its round's row commits before the close can mark the round closed (its line is in the close's
 * figures); a batch that comes after the close finds the round closed and books its lines late
 * (`after_close`). A row that did not exist could not be locked: at READ COMMITTED a locking read of
 * a missing row locks nothing, so a round's first BET whose batch waited on any lock committed after
 * its close, in no figures at all (issue 31). Two statements: an upsert that creates the rows or
 * takes the existing ones exclusively (`ON DUPLICATE KEY UPDATE` locks a duplicate exclusively
 * where `INSERT IGNORE` took a share lock that the read would then upgrade, and two batches of one
 * round upgrading together deadlock), then a locking read of whether each is closed. `FOR UPDATE` is
 * the one locking read MySQL 8.4, MariaDB 10.11 and TiDB all take (MariaDB has no `FOR SHARE`, TiDB
 * refuses `LOCK IN SHARE MODE` and has no share locks): batches of one round from two workers run
 * one after the other, each as big as the group commit makes it (docs/databases.md). Rows in one key
 * order, so two batches can never lock them crosswise. A round opened by a line then refused keeps
 * its row: an open round with no bets, as a round nobody bet in reads.
 */
function lockRounds(rows: Array<[number, string, string]>): Read[] {
  // Any order all batches share will do (the rows are locked in it): code-unit order is the cheapest.
  const sorted = rows.sort(([ta, ra], [tb, rb]) => ta - tb || (ra < rb ? -1 : ra > rb ? 1 : 0));
  return [
    {
      sql: once(
        "open-rounds",
        sorted.length,
        (n) =>
          `INSERT INTO rounds (tenant_id, round_id, game) VALUES ${tuples(n, 3)}` +
          " ON DUPLICATE KEY UPDATE tenant_id = tenant_id",
      ),
      values: sorted.flat(),
      load: () => {},
    },
    {
      sql: once(
        "lock-rounds",
        sorted.length,
        (n) =>
          "SELECT tenant_id, round_id, closed_at IS NOT NULL AS closed FROM rounds" +
          ` WHERE (tenant_id, round_id) IN (${tuples(n, 2)}) FOR UPDATE`,
      ),
      values: sorted.flatMap(([tenantId, roundId]) => [tenantId, roundId]),
      load: (rows, state) => {
        for (const row of rows)
          if (Number(row.closed) === 1)
            state.closedRounds.add(idKey(Number(row.tenant_id), String(row.round_id)));
      },
    },
  ];
}

/**
 * The key lookups in one statement (a statement costs MariaDB about 100 µs before its first row
 * here): the stored answers of the batch's own ids, the first ROLL_BACK's answer of each bet being
 * rolled back (a later rollback replays it), the sessions the batch's bets come through, and the
 * rounds the batch's CLOSE_ROUNDs close that are already closed, with that first close's answer (a
 * later close replays it). Every part names its columns: a UNION takes its names from whichever
 * part comes first. A close's own row is not locked: two closes of one round racing in two batches
 * meet on the unique key, and the loser's rerun reads the winner's (their round is locked apart, by
 * `lockRounds`).
 */
const lookupsSql = (records: number, firstRollbacks: number, sessions: number, closes: number) =>
  once(`lookups-${records}-${firstRollbacks}-${sessions}`, closes, () =>
    [
      records > 0 &&
        "SELECT 'record' AS kind, r.tenant_id, r.provider_tx_id AS id, r.body_sha256 AS a, r.status AS b, r.response AS c" +
          ` FROM idempotency_records r WHERE (r.tenant_id, r.provider_tx_id) IN (${tuples(records, 2)})`,
      firstRollbacks > 0 &&
        "SELECT 'record' AS kind, r.tenant_id, r.provider_tx_id AS id, r.body_sha256 AS a, r.status AS b, r.response AS c FROM bets b" +
          " JOIN idempotency_records r ON r.tenant_id = b.tenant_id AND r.provider_tx_id = b.rollback_provider_tx_id" +
          ` WHERE (b.tenant_id, b.provider_tx_id) IN (${tuples(firstRollbacks, 2)})`,
      sessions > 0 &&
        "SELECT 'session' AS kind, tenant_id, session_token AS id, player_id AS a, expires_at > CURRENT_TIMESTAMP(3) AS b, NULL AS c" +
          ` FROM game_sessions WHERE (tenant_id, session_token) IN (${tuples(sessions, 2)})`,
      closes > 0 &&
        "SELECT 'close' AS kind, c.tenant_id, c.round_id AS id, c.provider_tx_id AS a, NULL AS b, NULL AS c" +
          ` FROM round_closes c WHERE (c.tenant_id, c.round_id) IN (${tuples(closes, 2)})`,
      closes > 0 &&
        "SELECT 'record' AS kind, r.tenant_id, r.provider_tx_id AS id, r.body_sha256 AS a, r.status AS b, r.response AS c FROM round_closes c" +
          " JOIN idempotency_records r ON r.tenant_id = c.tenant_id AND r.provider_tx_id = c.provider_tx_id" +
          ` WHERE (c.tenant_id, c.round_id) IN (${tuples(closes, 2)})`,
    ]
      .filter(Boolean)
      .join(" UNION ALL "),
  );

function loadLookups(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    const key = idKey(Number(row.tenant_id), String(row.id));
    if (row.kind === "session")
      state.sessions.set(key, { playerId: Number(row.a), live: Number(row.b) === 1 });
    else if (row.kind === "close") state.closes.set(key, String(row.a));
    else
      state.records.set(key, { bodySha256: String(row.a), status: Number(row.b), response: String(row.c) });
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

/** The FREE_BETs of the (tenant, user, round) triples whose FREE_BET_WIN names no bet, locked. */
const freeBetsSql = (count: number) =>
  once(
    "free-bets-of-rounds",
    count,
    (n) =>
      "SELECT b.id, b.tenant_id, b.provider_tx_id, b.player_id, b.round_id, b.game, b.currency, b.kind, b.amount," +
      " b.status, b.won_amount, b.win_count, b.free_bet_grant_id, b.rollback_provider_tx_id FROM (" +
      Array.from({ length: n }, (_, index) =>
        index === 0 ? "SELECT ? AS t, ? AS u, ? AS r" : "SELECT ?, ?, ?",
      ).join(" UNION ALL ") +
      ") q JOIN players p ON p.tenant_id = q.t AND p.user_id = q.u" +
      " JOIN bets b ON b.player_id = p.id AND b.round_id = q.r" +
      " WHERE b.kind = 'FREE_BET' FOR UPDATE",
  );

function loadStakes(rows: Rows, state: BatchState): void {
  for (const row of rows) {
    const player = state.player(Number(row.tenant_id), String(row.user_id));
    if (player) state.setStaked(player.id, String(row.round_id), BigInt(row.staked ?? 0));
  }
}
