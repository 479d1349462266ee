import { closeRefusalReasons } from "@wallet/contracts/close-refusal";
import { refusedClosesQuery } from "@wallet/contracts/operator-api";
import { listRefusedCloses } from "@wallet/ledger/reads/refused-closes";
import { z } from "zod";
import { listRoute } from "./list-route.ts";
import { timestampField } from "./shapes.ts";

const request = { query: refusedClosesQuery };
const refused = z.object({
  refused_closes: z.array(
    z.object({
      id: z.int(),
      round_id: z.string().nullable(),
      provider_tx_id: z.string().nullable(),
      reason: z.enum(closeRefusalReasons),
      message: z.string(),
      body: z.string().meta({
        description:
          "as received; bytes that are not UTF-8 as U+FFFD. A body past the ordinary limit (64 KiB): its first 65,536 characters (body_complete false)",
      }),
      body_bytes: z
        .int()
        .nullable()
        .meta({ description: "the body's size as received (null: as body's UTF-8)" }),
      body_complete: z.boolean().meta({
        description:
          "false: body is the start of a larger body, whose bytes GET /v1/refused-closes/{id}/body sends",
      }),
      refused_at: timestampField,
      resolved_at: timestampField.nullable(),
      resolution: z.string().nullable(),
    }),
  ),
});

/** `GET /v1/refused-closes`: CLOSE_ROUNDs answered 400, for an SRE to correct (`POST …/close`). */
export const listRefusedClosesRoute = listRoute({
  path: "/v1/refused-closes",
  summary:
    "CLOSE_ROUNDs refused 400, with their body (as received; bytes that are not UTF-8 as U+FFFD) and reason (bad_id, missing_array, unreadable_array, out_of_range, misaligned, or malformed_body: not UTF-8, not JSON, or refused by the strict JSON check in a field the close reads), newest first (open ones unless include_resolved=true)",
  query: request.query,
  answer: { description: "{refused_closes: [...]}", schema: refused },
  find: async (deps, tenantId, query) => ({
    refused_closes: await listRefusedCloses(deps.ctx.db, {
      tenantId,
      includeResolved: query.include_resolved === "true",
      limit: query.limit,
    }),
  }),
});
