import { transactionsQuery } from "@wallet/contracts/operator-api";
import { playerTransactions } from "@wallet/ledger/reads/transactions";
import { z } from "zod";
import { sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { validatedFor } from "../validate.ts";
import { millisField, timestampField, userPath } from "./shapes.ts";

const request = {
  params: userPath,
  query: transactionsQuery.extend({
    cursor: transactionsQuery.shape.cursor.meta({ description: "next_cursor of the previous page" }),
  }),
};
const page = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      amount: millisField,
      balance_after: millisField,
      currency: z.string(),
      operator_tx_id: z.string(),
      provider_tx_id: z.string().nullable(),
      round_id: z.string().nullable(),
      game: z.string().nullable(),
      created_at: timestampField,
    }),
  ),
  next_cursor: z.string().nullable().meta({ description: "null on the last page" }),
});

/** `GET /v1/players/:user_id/transactions`: the player's journal, newest first, a page at a time. */
export const listTransactionsRoute: OperatorRoute = {
  method: "get",
  path: "/v1/players/:user_id/transactions",
  summary: "The player's journal, newest first",
  request,
  responses: {
    200: { description: "a page: {items, next_cursor}", schema: page },
    400: "a user_id past its limit, or invalid paging",
    404: "unknown player",
  },
  async handler(req, res, deps) {
    const paging = { limit: req.query.limit, cursor: req.query.cursor };
    const valid = validatedFor(req, res, deps.tenants, request.query, paging);
    if (!valid) return;
    const { input: query, tenantId } = valid;
    const userId = pathParam(req, "user_id");
    sendJson(res, 200, await playerTransactions({ ctx: deps.ctx, input: { tenantId, userId, ...query } }));
  },
};
