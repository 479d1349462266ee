import { limits, utf8BytesMax } from "@wallet/contracts/limits";
import { maxBatchCalls } from "../batch/requests.ts";
import { closePieceBytes, piecesPerCommit } from "../close-pieces/pieces.ts";
import { bets } from "../schema/bets.ts";
import { closePieces } from "../schema/close-pieces.ts";
import { freeBetGrants } from "../schema/free-bet-grants.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { loyaltyAwards, loyaltyBalances } from "../schema/loyalty.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { outbox } from "../schema/outbox.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { rounds } from "../schema/rounds.ts";
import { wallets } from "../schema/wallets.ts";
import { maxPruneChunk, maxRelayBatch } from "../side-effects/outbox-queries.ts";
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
  /** A CLOSE_ROUND read whole, its arrays stored in its row (a larger one goes to `close_pieces`). */
  closeInlineBytes: limits.closeInline.max,
  /** A manual close's body, which its audit line keeps (`verbs/operator-audit.ts`). */
  closeBodyBytes: limits.closeBody.max,
  closePieceBytes,
  piecesPerCommit,
  /** A refused close's body in its row: read whole (guarded), or the preview of a streamed one (UTF-16 units, 3 bytes each at most). */
  refusedBodyBytes: Math.max(limits.refusedBodyStored.max, 3 * limits.refusedBodyPreview.max),
  refusalMessageCodePoints: limits.refusalMessage.max,
  /** Rounds of one side-effect job (a relay turn's rows). */
  maxRelayBatch,
  /** Rows one retention DELETE of the outbox or the audit trail takes. */
  maxPruneChunk,
  /**
   * PLACEHOLDER for the merge: rows one retention DELETE of `refused_closes` takes, the literal 20 of
   * `retention/prune-expired.ts` (`expiry.refused_closes.maxChunk`, not exported on main). Branch
   * i42-runtime turns that chunk into a byte budget: import its named constant here once it lands.
   */
  refusedClosesChunkRows: 20,
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
    // A manual close's audit line keeps the request it was sent, every byte JSON-escaped at worst.
    "operator_actions.detail": jsonCodePoint * limits.closeBodyBytes + jsonFields,
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

/** The growing statement shapes, and what bounds each; in the order they are matched. */
export function statementBudgets(limits: ProductLimits = productLimits): StatementBudget[] {
  const bounds = textBounds(limits);
  const literal = (table: Parameters<typeof rowLiteralBytes>[0]) => rowLiteralBytes(table, bounds);
  const perCallWrites =
    literal(bets) +
    2 * literal(journalEntries) +
    literal(idempotencyRecords) +
    literal(roundCloses) +
    literal(rounds) +
    2 * literal(outbox) +
    // Its wallet's two CASE branches and IN entry, a grant restored, a write check.
    8 * 24;
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
      bound: `a manual close's request, ${limits.closeBodyBytes} bytes (limits.closeBody), JSON-escaped`,
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
      bound: `${limits.maxRelayBatch} rounds (maxRelayBatch) × their players: no limit of the product bounds a round's players`,
      bytes: Number.POSITIVE_INFINITY,
    },
    {
      name: "the group commit's writes",
      shapes:
        /^(UPDATE wallets SET balance|INSERT INTO (bets|journal_entries|idempotency_records|round_closes|rounds|outbox) )/,
      bound: `${limits.maxBatchCalls} calls (maxBatchCalls) × a call's rows, a close's arrays ${limits.closeInlineBytes} bytes (limits.closeInline) × ${closeArraysGrowth}`,
      bytes: statementText + limits.maxBatchCalls * perCallWrites,
    },
    {
      name: "the relay's round summaries",
      shapes:
        /^SELECT tenant_id, round_id, game, created_at FROM round_closes WHERE \(tenant_id, round_id\) IN/,
      bound: `${limits.maxRelayBatch} rounds (maxRelayBatch) of ${limits.roundIdCodePoints} code points in each of its 4 statements`,
      bytes: statementText + 4 * limits.maxRelayBatch * idPair(limits.roundIdCodePoints),
    },
    {
      name: "a retention delete",
      shapes: /^DELETE FROM (outbox|refused_closes|operator_actions|operator_api_tokens|close_pieces)\b/,
      bound: "its text: the rows go by LIMIT, not by value",
      bytes: statementText,
    },
  ];
}

/** Each kind of transaction the product commits, and what bounds it. */
export function transactionBudgets(limits: ProductLimits = productLimits): TransactionBudget[] {
  const bounds = textBounds(limits);
  const image = (table: Parameters<typeof rowImageBytes>[0]) => rowImageBytes(table, bounds);
  // An UPDATE's row is logged before and after (binlog_row_image=FULL).
  const perCall =
    2 * image(bets) +
    2 * image(journalEntries) +
    image(idempotencyRecords) +
    image(roundCloses) +
    2 * image(rounds) +
    2 * image(outbox) +
    2 * image(wallets) +
    2 * image(freeBetGrants);
  // A round's players are bounded only by its close's bets: 4 bytes a bet at least (`0,` in each array).
  const playersPerRound = Math.floor(limits.closeBodyBytes / 4);
  return [
    {
      name: "a group-committed batch",
      bound: `${limits.maxBatchCalls} calls (maxBatchCalls) × a call's rows, a close's arrays in its row`,
      bytes: limits.maxBatchCalls * perCall,
      largestRow: image(roundCloses),
    },
    {
      name: "a side-effect job",
      bound: `${limits.maxRelayBatch} rounds (maxRelayBatch) × up to ${playersPerRound} players each (a close of limits.closeBody bytes)`,
      bytes: limits.maxRelayBatch * playersPerRound * (image(loyaltyAwards) + 2 * image(loyaltyBalances)),
      largestRow: image(loyaltyAwards),
    },
    {
      name: "a close's pieces",
      bound: `${limits.piecesPerCommit} pieces (piecesPerCommit) of ${limits.closePieceBytes} bytes`,
      bytes: limits.piecesPerCommit * image(closePieces),
      largestRow: image(closePieces),
    },
    {
      name: "retention of refused closes",
      bound: `${limits.refusedClosesChunkRows} rows (PLACEHOLDER: prune-expired's chunk) of a refused close`,
      bytes: limits.refusedClosesChunkRows * image(refusedCloses),
      largestRow: image(refusedCloses),
    },
    {
      name: "retention of the outbox",
      bound: `${limits.maxPruneChunk} rows (maxPruneChunk) of the outbox`,
      bytes: limits.maxPruneChunk * image(outbox),
      largestRow: image(outbox),
    },
    {
      name: "retention of the audit trail",
      bound: `${limits.maxPruneChunk} rows (maxPruneChunk) of operator_actions`,
      bytes: limits.maxPruneChunk * image(operatorActions),
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
