import {
  adjustmentRequest,
  createPlayerRequest,
  freeBetGrantRequest,
  launchRequest,
  manualCloseRequest,
  operatorIdField,
} from "@wallet/contracts/operator-api";
import { z } from "zod";

/** JSON Schema of a request body, from the very zod schema that validates it. */
const bodySchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });

const error = { $ref: "#/components/schemas/Error" };
const responses = (ok: string, extra: Record<string, string> = {}) => ({
  [ok.split(" ")[0] ?? "200"]: { description: ok },
  ...Object.fromEntries(
    Object.entries(extra).map(([code, description]) => [
      code,
      { description, content: { "application/json": { schema: error } } },
    ]),
  ),
  "401": { description: "missing or wrong bearer token", content: { "application/json": { schema: error } } },
});
/**
 * Every JSON body may name the operator, on every route (operator.ts reads it for all of them), so it
 * is documented here once: the same rule as `?operatorId=`, and both only if equal.
 */
const { $schema: _nested, ...operatorIdSchema } = bodySchema(operatorIdField); // not a document: no $schema
const operatorIdProperty = {
  ...operatorIdSchema,
  description:
    "The operator, like ?operatorId=: a body and a query naming two operators is a 400; another operator than the token's is a 404",
};
const json = (schema: z.ZodType) => {
  const body = bodySchema(schema);
  return {
    required: true,
    content: {
      "application/json": {
        schema: { ...body, properties: { ...body.properties, operatorId: operatorIdProperty } },
      },
    },
  };
};
/** A route without a body of its own still takes one that only names the operator. */
const operatorOnlyBody = {
  required: false,
  content: {
    "application/json": { schema: { type: "object", properties: { operatorId: operatorIdProperty } } },
  },
};
const userPath = { name: "user_id", in: "path", required: true, schema: { type: "string" } };
const operatorQuery = {
  name: "operatorId",
  in: "query",
  required: false,
  schema: { type: "integer" },
  description: "The operator; may be omitted when only one is configured",
};

/** The operator API's OpenAPI 3.1 document, served at /openapi.json. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Operator wallet gateway: operator API",
    version: "1",
    description:
      "The operator's own API. Money is integer millis. Errors are {code, message} with code = HTTP status. " +
      "Bearer tokens: one operator each (`pnpm tokens create --operator <id> --scope read|write`); such a token " +
      "sees only its operator (another operator's data is 404), a read token may only GET (403). " +
      "OPERATOR_API_TOKEN acts for every operator (development and the demo).",
  },
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    schemas: {
      Error: {
        type: "object",
        required: ["code", "message"],
        properties: { code: { type: "integer" }, message: { type: "string" } },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    "/v1/players": {
      post: {
        summary: "Create a player with a wallet",
        requestBody: json(createPlayerRequest),
        responses: responses("201 created", { "400": "invalid body", "409": "user_id already exists" }),
      },
    },
    "/v1/players/{user_id}": {
      get: {
        summary: "A player: balance, loyalty points, rg counters",
        parameters: [userPath, operatorQuery],
        responses: responses("200 the player", { "404": "unknown player" }),
      },
    },
    "/v1/players/{user_id}/tokens": {
      post: {
        summary:
          "Mint a user_token (what a launch does, without the platform); audited (its expires_at, never the token)",
        parameters: [userPath, operatorQuery],
        requestBody: operatorOnlyBody,
        responses: responses("201 {user_token, expires_at}", {
          "400": "two operators named, or a malformed operatorId",
          "404": "unknown player",
        }),
      },
    },
    "/v1/players/{user_id}/launch": {
      post: {
        summary:
          "Launch a game on the platform for the player; audited once launched (the game, never a token or the launch URL)",
        parameters: [userPath, operatorQuery],
        requestBody: json(launchRequest),
        responses: responses("200 {launch_url, session_token}", {
          "400": "invalid body, or demo mode for a game without it",
          "404": "unknown player or game",
          "502": "the platform refused our request",
          "503": "the platform is unavailable",
        }),
      },
    },
    "/v1/players/{user_id}/adjustments": {
      post: {
        summary:
          "Cashier credit (amount > 0) or debit (amount < 0), idempotent on reference; runs in order with the player's callbacks",
        parameters: [userPath, operatorQuery],
        requestBody: json(adjustmentRequest.omit({ user_id: true })),
        responses: responses("201 applied (200 when replayed)", {
          "400": "invalid body",
          "402": "debit beyond the balance",
          "404": "unknown player",
          "409": "reference reused with a different body",
          "503": "retry with the same reference",
        }),
      },
    },
    "/v1/players/{user_id}/free-bets": {
      post: {
        summary: "Grant free bets",
        parameters: [userPath, operatorQuery],
        requestBody: json(freeBetGrantRequest),
        responses: responses("201 the grant", { "400": "invalid body", "404": "unknown player" }),
      },
    },
    "/v1/players/{user_id}/transactions": {
      get: {
        summary: "The player's journal, newest first",
        parameters: [
          userPath,
          operatorQuery,
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 200 } },
          {
            name: "cursor",
            in: "query",
            schema: { type: "string" },
            description: "next_cursor of the previous page",
          },
        ],
        responses: responses("200 {items, next_cursor}", {
          "400": "invalid paging",
          "404": "unknown player",
        }),
      },
    },
    "/v1/games": {
      get: {
        summary: "The platform's catalog through the cache",
        parameters: [operatorQuery],
        responses: responses("200 {games, fetched_at, stale}", {
          "502": "the platform refused our request",
          "503": "the platform is unavailable and nothing is cached",
        }),
      },
    },
    "/v1/games/cache/invalidate": {
      post: {
        summary: "Drop the cached catalog; audited",
        parameters: [operatorQuery],
        requestBody: operatorOnlyBody,
        responses: responses("204 dropped", { "400": "two operators named, or a malformed operatorId" }),
      },
    },
    "/v1/rounds/{round_id}": {
      get: {
        summary:
          "Round close, each side effect's state (pending, published, applied, dead), the failures of any that failed on its own, reconciliation (its first 100 differences, and `summary`: every difference counted and summed per kind, millis as decimal text), the latest round report (money as decimal text, schemaVersion 2)",
        parameters: [
          { name: "round_id", in: "path", required: true, schema: { type: "string" } },
          operatorQuery,
        ],
        responses: responses("200 the round", { "404": "unknown round" }),
      },
    },
    "/v1/rounds/{round_id}/close": {
      post: {
        summary:
          "Apply a corrected CLOSE_ROUND for a round whose platform close was refused: its side effects run once. A round closes once: a second call (or one after the platform's own close), whatever arrays it carries, answers 200 with the first close (replayed: true) and applies nothing; differs_from_first: true says its arrays differ from those the round was closed with, so they were not applied. Every call answered is audited",
        parameters: [
          { name: "round_id", in: "path", required: true, schema: { type: "string" } },
          operatorQuery,
        ],
        requestBody: json(manualCloseRequest),
        responses: responses(
          "200 {round_id, provider_tx_id, replayed, differs_from_first, refused_closes_resolved, close}",
          {
            "400": "invalid arrays (nothing stored), or no game known for the round",
            "503": "the ledger did not answer in time; retry",
          },
        ),
      },
    },
    "/v1/refused-closes": {
      get: {
        summary:
          "CLOSE_ROUNDs refused 400, with their body (as received; bytes that are not UTF-8 as U+FFFD) and reason (bad_id, missing_array, unreadable_array, out_of_range, misaligned, or malformed_body: not UTF-8, not JSON, or refused by the strict JSON check in a field the close reads), newest first (open ones unless include_resolved=true)",
        parameters: [
          operatorQuery,
          { name: "include_resolved", in: "query", schema: { type: "string", enum: ["true", "false"] } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 200 } },
        ],
        responses: responses("200 {refused_closes: [...]}"),
      },
    },
    "/v1/audit": {
      get: {
        summary:
          "The operator's writes through this API (player creation, user-token mints, launches, adjustments, free-bet grants, catalog cache invalidations, manual closes), newest first, each with the token that made it (`token:<public id>`, or OPERATOR_API_TOKEN)",
        parameters: [
          operatorQuery,
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500 } },
          { name: "before", in: "query", schema: { type: "integer", minimum: 1 } },
        ],
        responses: responses("200 {actions: [...], next_before}"),
      },
    },
    "/v1/tournaments/{id}/leaderboard": {
      get: {
        summary: "A tournament's leaderboard",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }, operatorQuery],
        responses: responses("200 the leaderboard", { "404": "unknown tournament" }),
      },
    },
  },
};
