import type { PoolConnection } from "mysql2/promise";
import { writeAndCommit } from "../sql/multi-statement.ts";
import { caseById, insertText, once, placeholders } from "../sql/sql-text.ts";
import {
  type BatchWriteHooks,
  keepFirstOnDuplicate,
  unguardedCommit,
  walletSeqNow,
  walletSeqValues,
} from "./planted-bugs.ts";
import type { BetState, CloseRow, JournalRow, OutboxRow, RecordRow, WriteSet } from "./state.ts";

interface Write {
  sql: string;
  values: unknown[];
}

/** The columns a table's batch INSERT writes, each with where its value comes from: one list, so they cannot drift. */
type Columns<T> = Record<string, (row: T) => unknown>;

const betColumns: Columns<BetState> = {
  tenant_id: (bet) => bet.tenantId,
  provider_tx_id: (bet) => bet.providerTxId,
  player_id: (bet) => bet.playerId,
  round_id: (bet) => bet.roundId,
  game: (bet) => bet.game,
  currency: (bet) => bet.currency,
  kind: (bet) => bet.kind,
  amount: (bet) => bet.amount,
  status: (bet) => bet.status,
  won_amount: (bet) => bet.wonAmount,
  win_count: (bet) => bet.winCount,
  free_bet_grant_id: (bet) => bet.freeBetGrantId,
  rollback_provider_tx_id: (bet) => bet.rollbackProviderTxId,
};

const journalColumns: Columns<JournalRow> = {
  tenant_id: (line) => line.tenantId,
  player_id: (line) => line.playerId,
  wallet_id: (line) => line.walletId,
  currency: (line) => line.currency,
  kind: (line) => line.kind,
  amount: (line) => line.amount,
  balance_after: (line) => line.balanceAfter,
  wallet_seq: (line) => line.walletSeq,
  operator_tx_id: (line) => line.operatorTxId,
  provider_tx_id: (line) => line.providerTxId,
  round_id: (line) => line.roundId,
  game: (line) => line.game,
  anomaly: (line) => line.anomaly ?? null,
};

const recordColumns: Columns<RecordRow> = {
  tenant_id: (record) => record.tenantId,
  provider_tx_id: (record) => record.providerTxId,
  body_sha256: (record) => record.bodySha256,
  action: (record) => record.action,
  status: (record) => record.status,
  response: (record) => record.response,
};

const closeColumns: Columns<CloseRow> = {
  tenant_id: (close) => close.tenantId,
  round_id: (close) => close.roundId,
  provider_tx_id: (close) => close.providerTxId,
  operator_tx_id: (close) => close.operatorTxId,
  game: (close) => close.game,
  currency: (close) => close.currency,
  bet_count: (close) => close.betCount,
  stakes: (close) => close.stakes,
  cash_out_coefficients: (close) => close.cashOutCoefficients,
  pieces_key: (close) => close.piecesKey,
};

const outboxColumns: Columns<OutboxRow> = {
  tenant_id: (row) => row.tenantId,
  topic: (row) => row.topic,
  event_id: (row) => row.eventId,
  payload: (row) => row.payload,
};

const valuesOf = <T>(rows: T[], columns: Columns<T>) =>
  rows.flatMap((row) => Object.values(columns).map((value) => value(row)));

/**
 * The batch's second and last round trip: every change its calls decided, set-based (one statement
 * per table, however many calls), then COMMIT. Balances move by deltas in SQL, never by values written
 * back from JavaScript, and the CHECK (balance >= 0) stays the last line against an overdraft.
 * `hooks` are test hooks, never set in production: planted bugs (`planted-bugs.ts`) and a pause before COMMIT.
 */
export async function writeBatch(
  connection: PoolConnection,
  writes: WriteSet,
  hooks?: BatchWriteHooks,
): Promise<void> {
  const keepFirst = hooks?.skipIdempotencyLookup === true;
  const dropLine = hooks?.dropJournalLine;
  const journal = dropLine ? writes.journal.filter((line) => !dropLine(line)) : writes.journal;
  const dropOutbox = hooks?.dropOutboxRow;
  const outbox = dropOutbox ? writes.outbox.filter((row) => !dropOutbox(row)) : writes.outbox;
  const statements: Write[] = [];
  if (writes.walletDeltas.size > 0) {
    const moved = [...writes.walletDeltas];
    const ids = moved.map(([id]) => id);
    statements.push(
      {
        sql: walletsSql(ids.length),
        values: [
          ...moved.flatMap(([id, { balance }]) => [id, balance]),
          ...moved.flatMap(([id, { lines }]) => [id, lines]),
          ...ids,
        ],
      },
      // Every wallet it names was read under lock: one missing means the batch's picture was wrong,
      // and no money may move.
      { sql: walletsExistSql(ids.length), values: [...ids, ids.length] },
    );
  }
  if (writes.newBets.length > 0) {
    const sql = insertBetsSql(writes.newBets.length);
    statements.push({
      sql: keepFirst ? keepFirstOnDuplicate(sql) : sql,
      values: valuesOf(writes.newBets, betColumns),
    });
  }
  if (writes.changedBets.size > 0) {
    const bets = [...writes.changedBets];
    const byId = (value: (bet: BetState) => unknown) => bets.flatMap((bet) => [bet.id, value(bet)]);
    statements.push({
      sql: updateBetsSql(bets.length),
      values: [
        ...byId((bet) => bet.status),
        ...byId((bet) => bet.wonAmount),
        ...byId((bet) => bet.winCount),
        ...byId((bet) => bet.rollbackProviderTxId),
        ...bets.map((bet) => bet.id),
      ],
    });
  }
  if (journal.length > 0) {
    const seqNow = hooks?.unlockedWalletRead ? walletSeqValues(journal) : undefined;
    statements.push({
      sql: journalSql(journal.length, seqNow !== undefined),
      values: journal.flatMap((line) => [
        ...(seqNow ? journalValuesSeqNow(line, seqNow) : valuesOf([line], journalColumns)),
        line.betId ?? null,
        line.betId === undefined ? line.tenantId : null,
        line.betId === undefined ? line.betProviderTxId : null,
      ]),
    });
  }
  if (writes.closes.length > 0) {
    const closedRounds = writes.closes.flatMap((close) => [close.tenantId, close.roundId, close.game]);
    statements.push(
      { sql: insertClosesSql(writes.closes.length), values: valuesOf(writes.closes, closeColumns) },
      { sql: closeRoundsSql(writes.closes.length), values: closedRounds },
    );
  }
  if (outbox.length > 0) {
    // The effects owed by the batch's closes, and by its lines booked into closed rounds.
    statements.push({
      sql: insertOutboxSql(outbox.length),
      values: valuesOf(outbox, outboxColumns),
    });
  }
  if (writes.grantRestores.size > 0) {
    const ids = [...writes.grantRestores.keys()];
    statements.push({
      sql: restoreGrantsSql(ids.length),
      values: [...[...writes.grantRestores].flat(), ...ids],
    });
  }
  if (writes.records.length > 0) {
    const sql = recordsSql(writes.records.length);
    statements.push({
      sql: keepFirst ? keepFirstOnDuplicate(sql) : sql,
      values: valuesOf(writes.records, recordColumns),
    });
  }
  // One round trip: the writes, then the guarded COMMIT (`sql/multi-statement.ts`). A statement that
  // fails stops the round trip before COMMIT (the caller rolls back).
  const beforeCommit = hooks?.beforeCommit;
  const commit = hooks?.unguardedPacket ? unguardedCommit : undefined;
  if (!beforeCommit) return writeAndCommit(connection, statements, commit);
  // A test hook (fault injection) runs between the writes and COMMIT, so COMMIT gets a round trip of its own.
  if (statements.length > 0)
    await connection.query(
      statements.map((statement) => statement.sql).join(";\n"),
      statements.flatMap((statement) => statement.values),
    );
  await beforeCommit();
  await writeAndCommit(connection, [], commit);
}

/**
 * Fails the round trip, before COMMIT, unless every wallet the batch moved exists: when one does not,
 * it inserts the same key twice into `write_checks` (a duplicate-key error on every server); when
 * all do, it inserts nothing. It replaced `IF(ROW_COUNT() = ?, 0, (SELECT 1 UNION ALL SELECT 2))`,
 * which relied on the subquery being evaluated only when needed: MariaDB does, but MySQL and TiDB
 * may evaluate a constant subquery while planning, and so fail every batch.
 */
const walletsExistSql = (count: number) =>
  once(
    "wallets-exist",
    count,
    (n) =>
      "INSERT INTO write_checks (k) SELECT 1 FROM (SELECT 1 AS n UNION ALL SELECT 2) two" +
      ` WHERE (SELECT COUNT(*) FROM wallets WHERE id IN (${placeholders(n)})) <> ?`,
  );

const insertInto = (table: string, columns: Columns<never>, count: number, tuple?: string) =>
  insertText(table, Object.keys(columns), count, tuple);

const walletsSql = (count: number) =>
  once(
    "wallets",
    count,
    (n) =>
      `UPDATE wallets SET balance = balance + ${caseById(n)}, seq = seq + ${caseById(n)},` +
      ` updated_at = CURRENT_TIMESTAMP(3) WHERE id IN (${placeholders(n)})`,
  );

const insertBetsSql = (count: number) => once("insert-bets", count, (n) => insertInto("bets", betColumns, n));

const updateBetsSql = (count: number) =>
  once(
    "update-bets",
    count,
    (n) =>
      `UPDATE bets SET status = ${caseById(n)}, won_amount = ${caseById(n)}, win_count = ${caseById(n)},` +
      ` rollback_provider_tx_id = ${caseById(n)} WHERE id IN (${placeholders(n)})`,
  );

/**
 * Each line's bet: its id when the batch read the bet; else found by its platform id, since a bet
 * inserted by this very batch has no id until now (about 20 µs of MariaDB CPU a line, so only then).
 */
const journalSql = (count: number, seqNow: boolean) =>
  once(seqNow ? "journal-seq-now" : "journal", count, (n) =>
    insertInto(
      "journal_entries",
      { ...journalColumns, bet_id: () => undefined },
      n,
      `(${seqNow ? journalTupleSeqNow : placeholders(Object.keys(journalColumns).length)}, COALESCE(?, (SELECT b.id FROM bets b WHERE b.tenant_id = ? AND b.provider_tx_id = ?)))`,
    ),
  );

/** Planted bug `unlockedWalletRead` (`planted-bugs.ts`): a line's `wallet_seq` read from its wallet row. */
const journalTupleSeqNow = Object.keys(journalColumns)
  .map((column) => (column === "wallet_seq" ? walletSeqNow : "?"))
  .join(", ");
const journalValuesSeqNow = (line: JournalRow, seqNow: (line: JournalRow) => unknown[]) =>
  Object.entries(journalColumns).flatMap(([column, value]) =>
    column === "wallet_seq" ? seqNow(line) : [value(line)],
  );

const insertClosesSql = (count: number) =>
  once("insert-closes", count, (n) => insertInto("round_closes", closeColumns, n));

/** A closed round is marked closed, whether or not a bet of ours opened it. */
const closeRoundsSql = (count: number) =>
  once(
    "close-rounds",
    count,
    (n) =>
      `INSERT INTO rounds (tenant_id, round_id, game, closed_at) VALUES ${Array.from({ length: n }, () => "(?, ?, ?, CURRENT_TIMESTAMP(3))").join(", ")}` +
      " ON DUPLICATE KEY UPDATE closed_at = CURRENT_TIMESTAMP(3)",
  );

const insertOutboxSql = (count: number) =>
  once("insert-outbox", count, (n) => insertInto("outbox", outboxColumns, n));

/** Free bets given back by rolled-back FREE_BETs, never above what was granted. */
const restoreGrantsSql = (count: number) =>
  once(
    "restore-grants",
    count,
    (n) =>
      `UPDATE free_bet_grants SET remaining = LEAST(granted, remaining + ${caseById(n)}) WHERE id IN (${placeholders(n)})`,
  );

const recordsSql = (count: number) =>
  once("insert-records", count, (n) => insertInto("idempotency_records", recordColumns, n));
