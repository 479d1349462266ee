/**
 * Every limit the wallet holds its input to, defined once, with its unit and why. Each entry point
 * (the gateway's callbacks, whole and streamed; the operator API's paths, queries and bodies; what a
 * refused close stores; the CLIs) reads its bound from here, and docs/contract-decisions.md's table
 * is rendered from this list (`limits-table.ts`, held by `limits.test.ts`).
 *
 * Units:
 * - code points: Unicode characters, what zod's string `max` counts, what JSON Schema's `maxLength`
 *   means and what a utf8mb4 VARCHAR counts. Never JS `.length` (UTF-16 units: two for an emoji), which
 *   measured a 65-emoji round id as 130 and stored its refused close without a round (issue 40).
 * - bytes: UTF-8 bytes as received (bodies) or as stored.
 * A limit with `stored` names the columns that keep the value at its longest; an id column
 * (`idString`, VARBINARY) takes 4 bytes for each character, the most UTF-8 spends on one, and
 * `packages/ledger/src/schema/limits-fit.test.ts` checks that each column holds `max` characters of 4
 * bytes (and `around` more ASCII characters, where the value is kept inside a longer key).
 */
export type LimitUnit =
  | "code points"
  | "UTF-16 units"
  | "bytes"
  | "ASCII characters"
  | "millis"
  | "decimal"
  | "integer"
  | "items"
  | "levels"
  | "keys";

export interface StoredIn {
  /** `table.column`. */
  column: string;
  /** ASCII characters kept beside the value in that column (a key's prefix and suffix). */
  around?: number;
}

export interface Limit {
  /** What is limited, as the docs name it. */
  name: string;
  unit: LimitUnit;
  min: number;
  max: number;
  /** A shape the value must also have, beyond its length. */
  format?: string;
  /** Where it is checked: every entry point that takes the value. */
  where: string;
  why: string;
  stored?: readonly StoredIn[];
}

/** Digits of the largest operator id (a positive safe integer): 16. */
const operatorIdDigits = String(Number.MAX_SAFE_INTEGER).length;
/** The largest integer a JSON number carries exactly. */
const safeMax = Number.MAX_SAFE_INTEGER;
/** ASCII around a round id in a side-effect event id: `round-report:<operator>:<round>:late:<uuid>`. */
const eventIdAround = "round-report:".length + operatorIdDigits + ":".length + ":late:".length + 36;
/** The most UTF-8 bytes one code point takes (U+10000 and above: emoji, CJK Extension B, …). */
export const utf8BytesMax = 4;
/** Characters of unpadded base64url for `bytes` bytes. */
const base64urlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);

const userIdMax = 64;
const roundIdMax = 128;
const adjustmentKeyPrefix = "operator-adjustment:";

export const limits = {
  // Ids, in code points.
  userId: {
    name: "`user_id`",
    unit: "code points",
    min: 1,
    max: userIdMax,
    where:
      "every callback that carries it; `POST /v1/players`; every `/v1/players/{user_id}` path (tokens, launch, adjustments, free bets, transactions)",
    why: "`players.user_id` holds 64 characters of 4 bytes; the user token is sized from it",
    // players.user_id VARBINARY(256): 64 characters of 4 bytes; operator_actions.subject VARCHAR(255) utf8mb4.
    stored: [{ column: "players.user_id" }, { column: "operator_actions.subject" }],
  },
  roundId: {
    name: "`action_id` (round id)",
    unit: "code points",
    min: 1,
    max: roundIdMax,
    where:
      "every callback, the streamed close too; `GET /v1/rounds/{round_id}`, `POST /v1/rounds/{round_id}/close`; a refused close keeps it whenever it is within this limit; `pnpm side-effects retry --round`",
    why: "every round a BET opens must be closable: its close key `{round_id}-{operator_id}-close-round` stays within the close key's limit, and a refused close stored with its round is one the manual close takes",
    // Every round_id column is VARBINARY(512): 128 characters of 4 bytes; an event id VARBINARY(800)
    // holds one with its 72 ASCII characters around it (584 bytes).
    stored: [
      { column: "bets.round_id" },
      { column: "journal_entries.round_id" },
      { column: "loyalty_awards.round_id" },
      { column: "rounds.round_id" },
      { column: "round_closes.round_id" },
      { column: "round_reconciliations.round_id" },
      { column: "round_reports.round_id" },
      { column: "side_effect_failures.round_id" },
      { column: "refused_closes.round_id" },
      { column: "operator_actions.subject" },
      { column: "outbox.event_id", around: eventIdAround },
      { column: "round_reports.event_id", around: eventIdAround },
      { column: "side_effect_failures.event_id", around: eventIdAround },
      { column: "side_effect_receipts.event_id", around: eventIdAround },
    ],
  },
  providerTxId: {
    name: "`provider_tx_id`, `withdraw_provider_tx_id` (BET, FREE_BET, WIN, FREE_BET_WIN, ROLL_BACK)",
    unit: "code points",
    min: 1,
    max: 128,
    where: "`/withdraw`, `/deposit`",
    why: "the contract's idempotency key, as long as a round id",
    // VARBINARY(512) in bets and the journal (128 × 4), VARBINARY(628) in idempotency_records.
    stored: [
      { column: "bets.provider_tx_id" },
      { column: "bets.rollback_provider_tx_id" },
      { column: "journal_entries.provider_tx_id" },
      { column: "idempotency_records.provider_tx_id" },
    ],
  },
  closeTxId: {
    name: "`provider_tx_id` of a CLOSE_ROUND",
    unit: "code points",
    min: 1,
    max: roundIdMax + "-".length + operatorIdDigits + "-close-round".length,
    where:
      "`/deposit` (whole and streamed); a refused close keeps it whenever it is within this limit; the manual close's key `{round_id}-{operator_id}-manual` is shorter",
    why: "the contract's close key `{round_id}-{operator_id}-close-round` for the longest round id and operator id: no round a BET opened is refused its close",
    // VARBINARY(628) = 157 × 4; refused_closes.provider_tx_id VARBINARY(1020).
    stored: [
      { column: "idempotency_records.provider_tx_id" },
      { column: "round_closes.provider_tx_id" },
      { column: "refused_closes.provider_tx_id" },
    ],
  },
  game: {
    name: "`game`",
    unit: "code points",
    min: 1,
    max: 128,
    where: "every callback (optional on `/balance`); launch, free-bet grants, the manual close",
    why: "a catalog id; as long as a round id",
    // Every game column is VARBINARY(512): 128 characters of 4 bytes.
    stored: [
      { column: "bets.game" },
      { column: "journal_entries.game" },
      { column: "rounds.game" },
      { column: "round_closes.game" },
      { column: "free_bet_grants.game" },
      { column: "tournaments.game" },
    ],
  },
  provider: {
    name: "`provider`",
    unit: "code points",
    min: 1,
    max: 64,
    where: "`/withdraw`, `/deposit` (but CLOSE_ROUND, which ignores it)",
    why: "the game provider's name; read, never stored",
  },
  platform: {
    name: "`platform`",
    unit: "code points",
    min: 1,
    max: 32,
    where: "every callback (optional); launch",
    why: "a device name (`desktop`, `mobile`); passed on, never stored",
  },
  sessionToken: {
    name: "`session_token`",
    unit: "code points",
    min: 1,
    max: 256,
    where: "`/auth`, `/withdraw`, `/deposit`, `/balance`",
    why: "the platform's session; stored only as its SHA-256, so no column bounds it",
  },
  userToken: {
    name: "`user_token`",
    unit: "code points",
    min: 1,
    max: 2 + base64urlLength(userIdMax * utf8BytesMax) + 1 + 24,
    format: "`u.<base64url of the user_id>.<24 random>`",
    where: "`/auth`",
    why: "the longest token minted: `u.`, the base64url of 64 characters of 4 bytes (342), `.`, 24 random; stored only as its SHA-256",
  },
  tenantPublicKey: {
    name: "an operator's `publicKey` (`TENANTS`, `X-Public-Key`)",
    unit: "code points",
    min: 1,
    max: 128,
    format: "printable ASCII: it travels in a header",
    where: "`TENANTS` at boot (gateway, worker, operator API)",
    why: "registered in `tenants.public_key` at the worker's boot",
    // tenants.public_key VARBINARY(512): 128 characters (of 1 byte, as printable ASCII).
    stored: [{ column: "tenants.public_key" }],
  },
  adjustmentReference: {
    name: "an adjustment's `reference`",
    unit: "code points",
    min: 1,
    max: (512 - adjustmentKeyPrefix.length) / utf8BytesMax,
    where: "`POST /v1/players/{user_id}/adjustments`",
    why: "its key `operator-adjustment:<reference>` is journalled in `journal_entries.provider_tx_id` (512 bytes): 20 + 4 × 123 = 512. At 128 a reference of 4-byte characters overflowed the column (a 503 on every retry)",
    // journal_entries.provider_tx_id VARBINARY(512) = 20 + 123 × 4; idempotency_records' VARBINARY(628).
    stored: [
      { column: "journal_entries.provider_tx_id", around: adjustmentKeyPrefix.length },
      { column: "idempotency_records.provider_tx_id", around: adjustmentKeyPrefix.length },
    ],
  },

  // Labels and texts of the operator API, in code points.
  username: {
    name: "a player's `username`",
    unit: "code points",
    min: 1,
    max: 128,
    where: "`POST /v1/players`",
    why: "`players.username` is VARCHAR(128) utf8mb4: 128 characters of any width",
    // VARCHAR(128) utf8mb4: characters, of up to 4 bytes each.
    stored: [{ column: "players.username" }],
  },
  adjustmentReason: {
    name: "an adjustment's `reason`",
    unit: "code points",
    min: 1,
    max: 256,
    where: "`POST /v1/players/{user_id}/adjustments`",
    why: "a cashier's note; kept in the adjustment's stored answer and its audit line (MEDIUMTEXT)",
  },
  manualCloseNote: {
    name: "a manual close's `note`",
    unit: "code points",
    min: 0,
    max: 500,
    where: "`POST /v1/rounds/{round_id}/close`",
    why: "why the SRE closed it, for the audit line (MEDIUMTEXT)",
  },
  tokenLabel: {
    name: "an operator token's label",
    unit: "code points",
    min: 0,
    max: 128,
    where: "`pnpm tokens create --label`",
    why: "`operator_api_tokens.label` is VARCHAR(128) utf8mb4 (a longer one failed the insert)",
    // VARCHAR(128) utf8mb4: characters, of up to 4 bytes each.
    stored: [{ column: "operator_api_tokens.label" }],
  },
  launchReturnUrl: {
    name: "a launch's `returnUrl`",
    unit: "bytes",
    min: 0,
    max: 2048,
    where: "`POST /v1/players/{user_id}/launch`",
    why: "a URL travels percent-encoded in the launch request's query (3 characters a byte): 2,048 bytes keep that request under the 16 KiB of headers an HTTP server takes (2,048 characters of 4 bytes did not: the platform answered 431)",
  },
  launchLanguage: {
    name: "a launch's `language`",
    unit: "code points",
    min: 0,
    max: 16,
    where: "`POST /v1/players/{user_id}/launch`",
    why: "a language tag (`en`, `pt-BR`); passed on to the platform",
  },
  attributeName: {
    name: "an attribute's `name`",
    unit: "code points",
    min: 1,
    max: 64,
    where: "`/withdraw`, `/deposit` (`attributes`)",
    why: "the contract's names are a dozen characters",
  },
  attributeValue: {
    name: "an attribute's `value` (but a CLOSE_ROUND's two arrays)",
    unit: "code points",
    min: 0,
    max: 65_536,
    where: "`/withdraw`, `/deposit` (`attributes`)",
    why: "bounded by the body anyway; a CLOSE_ROUND's arrays are bounded only by its body",
  },
  attributes: {
    name: "`attributes` entries",
    unit: "items",
    min: 0,
    max: 64,
    where: "`/withdraw`, `/deposit`",
    why: "the contract shows two to four",
  },
  refusalMessage: {
    name: "a refused close's message",
    unit: "code points",
    min: 1,
    max: 2000,
    where: "what a refused close stores and lists (`GET /v1/refused-closes`)",
    why: "`refused_closes.message` is VARCHAR(2000) utf8mb4; cut there, never inside a character",
    // VARCHAR(2000) utf8mb4: characters, of up to 4 bytes each.
    stored: [{ column: "refused_closes.message" }],
  },

  // Tokens of the operator API.
  operatorToken: {
    name: "an operator API bearer token (`pnpm tokens create`)",
    unit: "ASCII characters",
    min: 60,
    max: 60,
    format: "`wop_<public id: 12 hex>_<43 base64url>`",
    where:
      "every operator API route but `/healthz`, `/readyz`, `/openapi.json` (anything else but `OPERATOR_API_TOKEN` is a 401 without a read)",
    why: "what `createOperatorToken` mints: 6 random bytes of public id, 32 of secret; stored only as its SHA-256",
  },
  operatorTokenPublicId: {
    name: "an operator token's public id",
    unit: "ASCII characters",
    min: 12,
    max: 12,
    format: "12 lower-case hex digits",
    where: "`pnpm tokens revoke <public id>`",
    why: "6 random bytes in hex",
    // VARCHAR(16) utf8mb4.
    stored: [{ column: "operator_api_tokens.public_id" }],
  },

  // Sizes, in bytes (and the shape every body is read with).
  callbackBody: {
    name: "a callback's body (but a CLOSE_ROUND's)",
    unit: "bytes",
    min: 0,
    max: 64 * 1024,
    where: "the gateway, `BODY_LIMIT_BYTES` (this is its default; at least 1,024): 413 beyond",
    why: "no callback but a close needs more",
  },
  closeBody: {
    name: "a CLOSE_ROUND's body, and the manual close's",
    unit: "bytes",
    min: 0,
    max: 8 * 1024 * 1024,
    where:
      "the gateway (from a known `X-Public-Key`) and `POST /v1/rounds/{round_id}/close`, `CLOSE_ROUND_BODY_LIMIT_BYTES` (this is its default; at least 1,024): 413 beyond",
    why: "a close lists every bet of its round, about 12 bytes a bet: over 600,000 bets",
  },
  closeInline: {
    name: "a CLOSE_ROUND read whole",
    unit: "bytes",
    min: 0,
    max: 64 * 1024,
    where:
      "the gateway and the operator API: a larger close goes to the close intake and is read as a stream (`close-stream/`)",
    why: "fixed, not a setting: what a job, a row or an event-loop turn holds must not grow with configuration",
  },
  operatorApiBody: {
    name: "an operator API request's body (but the manual close's)",
    unit: "bytes",
    min: 0,
    max: 64 * 1024,
    where: "every operator API route: 413 beyond",
    why: "no request but a close needs more",
  },
  refusedBodyStored: {
    name: "a refused close's body kept in its row",
    unit: "bytes",
    min: 0,
    max: 1024 * 1024,
    where: "what a refused close read whole stores (a larger one is kept in pieces)",
    why: "a 64 KiB body that is not UTF-8 grows to 192 KiB as text; past this guard it is cut and still stored, never a 503 on every resend",
  },
  refusedBodyPreview: {
    name: "a large refused close's preview",
    unit: "UTF-16 units",
    min: 0,
    max: 64 * 1024,
    where:
      "what a refused close read as a stream stores and lists (the whole body: `GET /v1/refused-closes/{id}/body`)",
    why: "a body read whole (at most 65,536 bytes) decodes to at most as many UTF-16 units, so both readers look for a round id in the same text",
  },
  jsonDepth: {
    name: "a body's nesting",
    unit: "levels",
    min: 0,
    max: 64,
    where: "every callback, whole and streamed: a close too is refused (and stored)",
    why: "no body of the contract nests past three; bounds what a reader keeps per body",
  },
  jsonObjectKeys: {
    name: "keys of one object in a body",
    unit: "keys",
    min: 0,
    max: 1_000,
    where: "every callback, whole and streamed",
    why: "no object of the contract holds more than a dozen; bounds a reader's key set",
  },

  // Amounts and counts.
  millis: {
    name: "an amount (`amount`, a CLOSE_ROUND's stakes; a player's `balance`, `maxbet`, `minbet`, `maxwin`)",
    unit: "millis",
    min: 0,
    max: safeMax,
    where: "every callback; `POST /v1/players`; the manual close's stakes",
    why: "the largest integer a JSON number carries exactly; beyond, JSON.parse has already rounded it",
  },
  adjustmentAmount: {
    name: "an adjustment's `amount` (not 0)",
    unit: "millis",
    min: -safeMax,
    max: safeMax,
    where: "`POST /v1/players/{user_id}/adjustments`",
    why: "as any amount, signed: a debit is negative",
  },
  balance: {
    name: "a wallet's balance",
    unit: "millis",
    min: 0,
    max: safeMax,
    where: "every credit (WIN, FREE_BET_WIN, ROLL_BACK, an adjustment): a 400 that moves nothing beyond",
    why: "`/balance` must answer a number the platform reads exactly, and BIGINT must never overflow (a 503 on every retry)",
  },
  coefficient: {
    name: "a CLOSE_ROUND cash-out coefficient",
    unit: "decimal",
    min: 0,
    max: 1_000_000,
    where: "`/deposit` CLOSE_ROUND (whole and streamed), the manual close",
    why: "judged on the text as written; a payout (stake × coefficient) stays within the ledger's integers, and a JS number carries it to 8 places",
  },
  freeBetCount: {
    name: "free bets in one grant",
    unit: "items",
    min: 1,
    max: 1_000,
    where: "`POST /v1/players/{user_id}/free-bets`",
    why: "a grant is a promotion, not a balance",
  },
  operatorId: {
    name: "an operator id (`operatorId`, `TENANTS`, `--operator`)",
    unit: "integer",
    min: 1,
    max: safeMax,
    where: "every operator API route (query or body), `TENANTS`, `pnpm tokens`, `pnpm side-effects retry`",
    why: "a positive safe integer: 16 digits at most, which the close key is sized for",
  },
  transactionsPage: {
    name: "`limit` of `GET /v1/players/{user_id}/transactions`",
    unit: "items",
    min: 1,
    max: 200,
    where: "that route's query",
    why: "a page, not an export",
  },
  refusedClosesPage: {
    name: "`limit` of `GET /v1/refused-closes`",
    unit: "items",
    min: 1,
    max: 200,
    where: "that route's query",
    why: "each row may carry a 64 KiB body",
  },
  auditPage: {
    name: "`limit` of `GET /v1/audit`",
    unit: "items",
    min: 1,
    max: 500,
    where: "that route's query",
    why: "a page, not an export",
  },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof limits;

/** Code points of `text`: what every limit in code points counts (a lone surrogate counts one). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/**
 * Whether `value` is an id within `limit`, by the rules `identifier` (fields.ts) holds ids to: a
 * string of `min` to `max` code points, not only whitespace. What a refused close keeps as its round
 * and key, so any refusal stored with a round is one the manual close of that round takes.
 */
export function isIdWithin(limit: Limit, value: unknown): value is string {
  if (typeof value !== "string" || !/\S/.test(value)) return false;
  // A string already within `max` UTF-16 units is within `max` code points: most need no count.
  const length = value.length <= limit.max ? value.length : codePointLength(value);
  return length >= limit.min && length <= limit.max;
}

/** `text` cut to `max` code points, never inside a character (a cut pair would store U+FFFD). */
export function cutToCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let points = 0; points < max && units < text.length; points++) {
    const unit = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    units += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}
