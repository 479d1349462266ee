import { z } from "zod";
import { callbackCatalog, callbackRefusal } from "./callback-catalog.ts";
import { envelope } from "./envelope.ts";
import { type CallbackOp, callbackOps } from "./jobs.ts";
import { wireJsonSchema } from "./wire-json-schema.ts";

/**
 * What every callback may answer, whatever its body: the gateway's own checks in the order it makes
 * them (apps/gateway/src/app.ts, callback.ts) and Node's HTTP parser (`answerClientErrorsAsJson`).
 * Listed once, so each callback gets them; `perCallback` adds what the ledger answers for each.
 */
const everyCallback: Record<number, string> = {
  400: "the body is not UTF-8, not strict JSON (duplicate keys, `__proto__`, some `\\u` escapes), or off its schema (each field named); or a request Node's HTTP parser refuses",
  401: "X-Public-Key missing or unknown; X-Signature missing, not canonical Base64 of 32 bytes, or not the HMAC of these bytes",
  408: "the request was not received within REQUEST_TIMEOUT_MS (its headers within HEADERS_TIMEOUT_MS)",
  413: "the body is past BODY_LIMIT_BYTES (64 KiB), unless it is a CLOSE_ROUND on /deposit from a known X-Public-Key (then CLOSE_ROUND_BODY_LIMIT_BYTES, 8 MiB)",
  415: "the body is compressed (Content-Encoding): a signature covers the bytes as sent, which are never inflated",
  431: "request headers past 16 KiB",
  503: "transient: the gateway is full (MAX_IN_FLIGHT), no answer from the ledger within CALLBACK_DEADLINE_MS, MariaDB or Redis unavailable; resend the same bytes and signature",
};

/** The ledger's refusals, per callback (docs/contract.md, "Status codes"). */
const perCallback: Record<CallbackOp, Record<number, string>> = {
  auth: {
    400: "currency is not the player's",
    404: "a user_token unknown, expired or another operator's; a session_token already bound to another player",
  },
  withdraw: {
    400: "the wrong currency, a BET of 0, under minbet or past maxbet for the round, a FREE_BET amount other than 0",
    402: "a BET past the balance (data: the balance); a FREE_BET with no grant left",
    404: "unknown user_id; a session unknown, expired or another player's",
    409: "provider_tx_id sent before with other bytes (data: the first answer); a bet under an id another player's rollback tombstoned",
  },
  deposit: {
    400: "the wrong currency, a settlement of a bet unknown, another player's or round's, or rolled back, a rollback of a won bet, a credit past 2^53 − 1, a CLOSE_ROUND that cannot be understood (stored, listed by the operator API)",
    404: "unknown user_id",
    409: "provider_tx_id sent before with other bytes (data: the first answer)",
  },
  balance: {
    400: "neither user_id nor session_token, or a currency that is not the player's",
    404: "an unknown player or session, or a session of another player than user_id",
  },
};

const summaries: Record<CallbackOp, string> = {
  auth: "Open a player's session: the user_token minted by the operator, bound to the platform's session_token",
  withdraw: "Take a bet: BET (money) or FREE_BET (a grant the operator gave)",
  deposit:
    "Settle: WIN, FREE_BET_WIN, ROLL_BACK (money back in), or CLOSE_ROUND (the round's arrays, no money)",
  balance: "A player's balance, by user_id or session_token",
};

const json = (schema: object) => ({ "application/json": { schema } });

/** A refusal's body: the envelope, its `code` the status it came with. */
const refusalOf = (status: number) =>
  wireJsonSchema(callbackRefusal.extend({ code: z.literal(status) }), { answer: true });

function responses(op: CallbackOp) {
  const reasons = { ...everyCallback };
  for (const [status, reason] of Object.entries(perCallback[op]))
    reasons[Number(status)] = reasons[Number(status)] ? `${reason}; or ${reasons[Number(status)]}` : reason;
  const ok = envelope(callbackCatalog[op].reply).extend({ code: z.literal(200) });
  return {
    200: {
      description: "done (or the stored answer of these bytes, sent before, again)",
      content: json(wireJsonSchema(ok, { answer: true })),
    },
    ...Object.fromEntries(
      Object.entries(reasons).map(([status, reason]) => [
        status,
        { description: reason, content: json(refusalOf(Number(status))) },
      ]),
    ),
  };
}

function operation(op: CallbackOp) {
  return {
    summary: summaries[op],
    requestBody: {
      required: true,
      description:
        "JSON, signed as sent. At most BODY_LIMIT_BYTES (64 KiB); a CLOSE_ROUND from a known X-Public-Key up to CLOSE_ROUND_BODY_LIMIT_BYTES (8 MiB).",
      content: json(wireJsonSchema(callbackCatalog[op].request)),
    },
    responses: responses(op),
  };
}

/**
 * The four callbacks as an OpenAPI 3.1 document for the platform's integrators, built from the zod
 * shapes the gateway validates with and the ledger answers with: served by the gateway at
 * `GET /openapi.json` and published as `docs/schemas/callbacks.openapi.json` (`pnpm schemas`;
 * `json-schemas.test.ts` fails when the file differs from this).
 */
export function buildCallbacksOpenApi() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Operator wallet gateway: the platform's callbacks",
      version: "1",
      description:
        "The four signed callbacks the game platform sends the operator's wallet, at the root of its base URL. " +
        "Every answer is the envelope {code, message, data} with the HTTP status equal to code. Money is integer " +
        "millis (1/1000 of the currency unit). A 4xx is final; a 5xx (or a timeout) is resent with the same bytes " +
        "and signature, which are idempotent on (operator, provider_tx_id): the stored answer comes back. " +
        "The contract as implemented: docs/contract.md.",
    },
    components: {
      securitySchemes: {
        publicKey: {
          type: "apiKey",
          in: "header",
          name: "X-Public-Key",
          description: "The operator's public key, given at onboarding: names whose secret signs the body.",
        },
        signature: {
          type: "apiKey",
          in: "header",
          name: "X-Signature",
          description:
            "base64(hmac_sha256(secret, raw body)): standard padded Base64 of the HMAC-SHA256 of the request body's bytes " +
            "exactly as sent, keyed with the operator's secret. Checked before the body is read, in constant time; the " +
            "same JSON written with other bytes (spaces, key order, escapes) is another signature.",
        },
      },
    },
    security: [{ publicKey: [], signature: [] }],
    paths: Object.fromEntries(callbackOps.map((op) => [callbackCatalog[op].path, { post: operation(op) }])),
  };
}

export const callbacksOpenApi = buildCallbacksOpenApi();
