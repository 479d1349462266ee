import { limits, utf8BytesMax } from "@wallet/contracts/limits";
import { callBatchBytes, maxBatchBytes } from "../batch/batch-bytes.ts";
import { maxBatchCalls } from "../batch/requests.ts";
import { closePieceBytes, piecesPerCommit } from "../close-pieces/pieces.ts";
import { pruneBudgetBytes } from "../retention/expired-chunk.ts";
import { bets } from "../schema/bets.ts";
import { closePieces } from "../schema/close-pieces.ts";
import { freeBetGrants } from "../schema/free-bet-grants.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { loyaltyAwards, loyaltyBalances } from "../schema/loyalty.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { outbox } from "../schema/outbox.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { rgDaily } from "../schema/rg-daily.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";
import { tournamentScores } from "../schema/tournaments.ts";
import { wallets } from "../schema/wallets.ts";
import { effectUnitsPerTransaction } from "../side-effects/effect-transactions.ts";
import { maxPruneChunk, outboxPruneRows } from "../side-effects/outbox-queries.ts";
import { summaryRoundsPerRead } from "../side-effects/round-summary.ts";
import { auditDetailMaxBytes } from "../verbs/audit-detail.ts";
import { rowImageBytes, rowLiteralBytes, type TextBounds } from "./row-bytes.ts";

/**
 * The product's own limits the size budgets are computed from, each imported from where it is
 * defined. A test passes other values (a doubled limit) to show the budgets failing.
 */
export const productLimits = {
  /** The longest id, in code points: the close key `{round_id}-{operator_id}-close-round`. */
  idCodePoints: Math.max(limits.closeTxId.max, limits.roundId.max, limits.providerTxId.max, limits.game.max),
  roundIdCodePoints: limits.roundId.max,
  maxBatchCalls,
  /** The most of its calls' weights (`callBatchBytes`) a batch takes, at least one call. */
  maxBatchBytes,
  /** A CLOSE_ROUND read whole, its arrays stored in its row (a larger one goes to `close_pieces`). */
  closeInlineBytes: limits.closeInline.max,
  /** An audit line's detail, in bytes of its JSON (a larger value is kept by its size and digest). */
  auditDetailBytes: auditDetailMaxBytes,
  closePieceBytes,
  piecesPerCommit,
  /** A refused close's body in its row: read whole (guarded), or the preview of a streamed one (UTF-16 units, 3 bytes each at most). */
  refusedBodyBytes: Math.max(limits.refusedBodyStored.max, 3 * limits.refusedBodyPreview.max),
  refusalMessageCodePoints: limits.refusalMessage.max,
  /** Receipts and players one side-effect transaction takes (`effect-transactions.ts`). */
  effectUnits: effectUnitsPerTransaction,
  /** Rounds one round trip of the relay's summary reads names. */
  summaryRounds: summaryRoundsPerRead,
  /** Rows one retention DELETE names by id (the operator's records; OUTBOX_PRUNE_CHUNK at most). */
  maxPruneChunk,
  /** Rows one outbox retention DELETE takes at most (`outboxPruneRows` at OUTBOX_PRUNE_CHUNK's maximum). */
  outboxPruneRows: outboxPruneRows(maxPruneChunk),
  /** Bytes of rows one retention DELETE of the operator's records takes, at least one row (`expired-chunk.ts`). */
  pruneBudgetBytes,
};
export type ProductLimits = typeof productLimits;

const KiB = 1024;
/**
 * A close's arrays as the ledger stores them, against the body's bytes: a stake written `1e15,`
 * (5 bytes) is stored `1000000000000000,` (17), a coefficient `1e6,` as `1000000,`; nothing grows more.
 */
const closeArraysGrowth = 17 / 5;
/** A code point JSON-escaped (`\u0001`) at most: what an id costs inside a stored JSON text. */
const jsonCodePoint = 6;
/** Keys, numbers and words of a JSON answer or payload besides its ids. */
const jsonFields = KiB;
/** A packet's own SQL text (keywords, column lists) besides its values: the longest is a few KiB. */
const statementText = 16 * KiB;
/** A quoted id of `codePoints`, an integer and their separators: one `(tenant_id, id)` pair of an IN list. */
const idPair = (codePoints: number) => 2 + utf8BytesMax * codePoints + 20 + 6;
/** Ids the group commit's read round trip takes per call at most (a BET: its player, session, round and game, the round's lock, its id twice, its player and round for the stakes). */
const readIdsPerCall = 9;

/** What each unbounded column is kept to, from the product's limits. */
function textBounds(limits: ProductLimits): TextBounds {
  const id = jsonCodePoint * limits.idCodePoints;
  const arrays = Math.ceil(closeArraysGrowth * limits.closeInlineBytes);
  return {
    // An answer names its ids (the call's, its bet's, the operator's) and a few numbers.
    "idempotency_records.response": 4 * id + jsonFields,
    // Both arrays come from one body: their sum is counted once, on `stakes`.
    "round_closes.stakes": arrays,
    "round_closes.cash_out_coefficients": 0,
    // Its event id, round, game and key, and a late line's numbers.
    "outbox.payload": 4 * id + jsonFields,
    "refused_closes.body": limits.refusedBodyBytes,
    // Its JSON text, kept to this many bytes (`audit-detail.ts`).
    "operator_actions.detail": limits.auditDetailBytes,
    "close_pieces.bytes": limits.closePieceBytes,
  };
}

export interface StatementBudget {
  name: string;
  /** The shapes (`statementShape`) it covers: the first budget whose pattern matches a shape is its. */
  shapes: RegExp;
  /** What bounds it, in the product's own limits. */
  bound: string;
  /** The most bytes one statement (one round trip) of these shapes sends. */
  bytes: number;
}

export interface TransactionBudget {
  name: string;
  bound: string;
  /** The most bytes its rows take in the binary log (an UPDATE's row twice: before and after) or in TiDB. */
  bytes: number;
  /** Its largest row, against TiDB's entry limit. */
  largestRow: number;
}

/** A call's rows but a close's arrays, as an INSERT's values: what the batch's reads and weights leave out. */
type Measure = (table: Parameters<typeof rowLiteralBytes>[0]) => number;

/** One unit of a side-effect transaction at most: a receipt, or the rows one player moves in one topic. */
function effectUnit(measure: Measure, upsertTwice: number): number {
  return Math.max(
    measure(sideEffectReceipts),
    // Loyalty: the award and the balance (an upsert: its row before and after).
    measure(loyaltyAwards) + upsertTwice * measure(loyaltyBalances),
    upsertTwice * measure(rgDaily),
    upsertTwice * measure(tournamentScores),
  );
}

/** The growing statement shapes, and what bounds each; in the order they are matched. */
export function statementBudgets(limits: ProductLimits = productLimits): StatementBudget[] {
  const bounds = textBounds(limits);
  const literal: Measure = (table) => rowLiteralBytes(table, bounds);
  return [
    {
      name: "a close piece",
      shapes: /^INSERT INTO close_pieces\b/,
      bound: `one piece of ${limits.closePieceBytes} bytes (closePieceBytes)`,
      bytes: statementText + literal(closePieces),
    },
    {
      name: "a refused close stored",
      shapes: /^insert (ignore )?into `?refused_closes`?/i,
      bound: `its body, ${limits.refusedBodyBytes} bytes (limits.refusedBodyStored, refusedBodyPreview)`,
      bytes: statementText + literal(refusedCloses),
    },
    {
      name: "an audit line",
      shapes: /^insert into `?operator_actions`?/i,
      bound: `its detail, ${limits.auditDetailBytes} bytes (auditDetailMaxBytes: a larger value by its size and SHA-256)`,
      bytes: statementText + literal(operatorActions),
    },
    {
      name: "the group commit's reads and locks",
      shapes:
        /^SET autocommit = \?; START TRANSACTION; SAVEPOINT whole_transaction; (SELECT p\.id\b|INSERT INTO rounds\b)/,
      bound: `${limits.maxBatchCalls} calls (maxBatchCalls) × ${readIdsPerCall} ids of ${limits.idCodePoints} code points`,
      bytes: statementText + limits.maxBatchCalls * readIdsPerCall * idPair(limits.idCodePoints),
    },
    {
      name: "the side effects' round trips",
      shapes:
        /^(SET autocommit = \?; START TRANSACTION; SAVEPOINT whole_transaction; SELECT event_id FROM side_effect_receipts|INSERT INTO side_effect_receipts)\b/,
      bound: `${limits.effectUnits} receipts and players a transaction (effectUnitsPerTransaction), each a receipt or a player's rows of one topic`,
      bytes: statementText + limits.effectUnits * effectUnit(literal, 1),
    },
    {
      name: "the group commit's writes",
      shapes:
        /^(UPDATE wallets SET balance|INSERT INTO (bets|journal_entries|idempotency_records|round_closes|rounds|outbox) )/,
      // Every call weighs at least what its rows add (`batch-bytes.ts`); a batch takes at least one call.
      bound: `${limits.maxBatchBytes} bytes of its calls' weights (maxBatchBytes), or one call read whole (limits.closeInline)`,
      bytes: statementText + Math.max(limits.maxBatchBytes, callBatchBytes(limits.closeInlineBytes)),
    },
    {
      name: "the relay's round summaries",
      shapes:
        /^SELECT tenant_id, round_id, game, created_at FROM round_closes WHERE \(tenant_id, round_id\) IN/,
      bound: `${limits.summaryRounds} rounds a round trip (summaryRoundsPerRead) of ${limits.roundIdCodePoints} code points in each of its 4 statements`,
      bytes: statementText + 4 * limits.summaryRounds * idPair(limits.roundIdCodePoints),
    },
    {
      name: "a retention delete",
      shapes: /^DELETE FROM (outbox|refused_closes|operator_actions|operator_api_tokens|close_pieces)\b/,
      bound: `its text and the ids of ${limits.maxPruneChunk} rows (maxPruneChunk); the outbox's go by LIMIT`,
      bytes: statementText + limits.maxPruneChunk * (20 + 2),
    },
  ];
}

/** Each kind of transaction the product commits, and what bounds it. */
export function transactionBudgets(limits: ProductLimits = productLimits): TransactionBudget[] {
  const bounds = textBounds(limits);
  const image: Measure = (table) => rowImageBytes(table, bounds);
  // A call's rows with its close's arrays left out: they count in the batch's bytes instead.
  const noArrays: Measure = (table) => rowImageBytes(table, { ...bounds, "round_closes.stakes": 0 });
  // An UPDATE's row is logged before and after (binlog_row_image=FULL).
  const perCall =
    2 * noArrays(bets) +
    2 * noArrays(journalEntries) +
    noArrays(idempotencyRecords) +
    noArrays(roundCloses) +
    2 * noArrays(rounds) +
    2 * noArrays(outbox) +
    2 * noArrays(wallets) +
    2 * noArrays(freeBetGrants);
  const batchArrays = Math.max(limits.maxBatchBytes, callBatchBytes(limits.closeInlineBytes));
  // A retention chunk takes rows while their weights (each at least its image) fit, and at least one.
  const retention = (table: Parameters<typeof rowImageBytes>[0]) =>
    Math.max(limits.pruneBudgetBytes, image(table));
  return [
    {
      name: "a group-committed batch",
      bound: `${limits.maxBatchCalls} calls (maxBatchCalls) × a call's rows, and its closes' arrays within ${limits.maxBatchBytes} bytes of weights (maxBatchBytes)`,
      bytes: limits.maxBatchCalls * perCall + batchArrays,
      largestRow: image(roundCloses),
    },
    {
      name: "a side-effect transaction",
      bound: `${limits.effectUnits} receipts and players (effectUnitsPerTransaction), each a receipt or a player's rows of one topic`,
      bytes: limits.effectUnits * effectUnit(image, 2),
      largestRow: Math.max(image(loyaltyAwards), image(sideEffectReceipts)),
    },
    {
      name: "a close's pieces",
      bound: `${limits.piecesPerCommit} pieces (piecesPerCommit) of ${limits.closePieceBytes} bytes`,
      bytes: limits.piecesPerCommit * image(closePieces),
      largestRow: image(closePieces),
    },
    {
      name: "retention of refused closes",
      bound: `${limits.pruneBudgetBytes} bytes of rows (pruneBudgetBytes), or one row of a refused close`,
      bytes: retention(refusedCloses),
      largestRow: image(refusedCloses),
    },
    {
      name: "retention of the outbox",
      bound: `${limits.outboxPruneRows} rows (outboxPruneRows: pruneBudgetBytes of rows of outboxRowMaxBytes) of the outbox`,
      bytes: limits.outboxPruneRows * image(outbox),
      largestRow: image(outbox),
    },
    {
      name: "retention of the audit trail",
      bound: `${limits.pruneBudgetBytes} bytes of rows (pruneBudgetBytes), or one row of operator_actions`,
      bytes: retention(operatorActions),
      largestRow: image(operatorActions),
    },
    {
      name: "a migration's ALTER",
      bound: "no rows: DDL, which TiDB runs as a DDL job and Group Replication as a statement of its own",
      bytes: 0,
      largestRow: 0,
    },
  ];
}
