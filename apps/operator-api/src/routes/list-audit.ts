import { limits } from "@wallet/contracts/limits";
import { pageLimit } from "@wallet/contracts/operator-api";
import { listOperatorActions } from "@wallet/ledger/reads/operator-actions";
import { z } from "zod";
import { listRoute } from "./list-route.ts";
import { anyJson, timestampField } from "./shapes.ts";

const request = {
  query: z.object({
    limit: pageLimit(limits.auditPage),
    before: z
      .string()
      .regex(/^\d{1,15}(\.\d{1,15})?$/, "must be a next_before from a previous page")
      .optional()
      .meta({
        description:
          "next_before of the previous page (opaque). A bare line id, what next_before was before, is still taken: the page continues after that line",
      }),
    // Read by operator.ts (and documented with every route); taken here so the query validates whole.
    operatorId: z.unknown().optional(),
  }),
};
const trail = z.object({
  actions: z.array(
    z.object({
      id: z.int(),
      action: z.string(),
      subject: z.string(),
      actor: z.string().meta({ description: "token:<public id>, or OPERATOR_API_TOKEN" }),
      detail: anyJson.meta({
        description:
          "what was done and answered, as stored. Kept to 64 KiB: a larger value (a manual close's request with large arrays) is stored as {omitted: true, bytes, sha256}, the size and SHA-256 (hex) of its JSON",
      }),
      created_at: timestampField,
    }),
  ),
  next_before: z.string().nullable().meta({
    description:
      "where the next page starts (opaque: pass it as `before`), null on the last page. Pages follow the list's order, newest first by created_at then id, so no line is skipped or listed twice",
  }),
});

/** `GET /v1/audit`: the operator's writes through this API, newest first, each with the token that made it. */
export const listAuditRoute = listRoute({
  path: "/v1/audit",
  summary:
    "The operator's writes through this API (player creation, user-token mints, launches, adjustments, free-bet grants, catalog cache invalidations, manual closes), newest first, each with the token that made it (`token:<public id>`, or OPERATOR_API_TOKEN)",
  query: request.query,
  answer: { description: "{actions: [...], next_before}", schema: trail },
  find: (deps, tenantId, { limit, before }) => listOperatorActions(deps.ctx.db, { tenantId, limit, before }),
});
