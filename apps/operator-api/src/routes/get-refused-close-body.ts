import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { refusedCloseBody } from "@wallet/ledger/reads/refused-closes";
import { z } from "zod";
import { tenantOf } from "../operator.ts";
import { sendError } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";

const request = {
  params: z.object({
    id: z.string().regex(/^[1-9]\d{0,15}$/, "must be a refused close's id (a positive integer)"),
  }),
};

/**
 * `GET /v1/refused-closes/:id/body`: a refused CLOSE_ROUND's body as received, for an SRE to read or
 * correct before `POST /v1/rounds/{round_id}/close`. The listing shows a large body's start only
 * (`body_complete: false`); here are all its bytes (those that were not UTF-8 too), streamed a piece
 * at a time, never held whole.
 */
export const getRefusedCloseBodyRoute: OperatorRoute = {
  method: "get",
  path: "/v1/refused-closes/:id/body",
  summary:
    "A refused CLOSE_ROUND's body as it was received (application/octet-stream), byte for byte, bytes that are not UTF-8 included: the whole of a body the listing shows only the start of (body_complete: false). A body the listing holds whole is sent as the listing's text, UTF-8",
  request,
  responses: {
    200: { description: "the body's bytes", mediaType: "application/octet-stream" },
    400: "id must be a refused close's id (a positive integer)",
    404: "no refused close with this id for this operator",
  },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const id = request.params.shape.id.safeParse(pathParam(req, "id"));
    if (!id.success)
      return sendError(res, "BAD_REQUEST", "id: must be a refused close's id (a positive integer)");
    const found = await refusedCloseBody(deps.ctx.db, { tenantId, id: Number(id.data) });
    if (!found) return sendError(res, "NOT_FOUND", `refused close ${id.data} not found`);
    res.status(200).type("application/octet-stream");
    if (found.bytes !== null) res.setHeader("content-length", String(found.bytes));
    // A large body is kept gzipped, a member per piece it came in (`close-intake.ts`): unzipped on the way out.
    const source = Readable.from(found.pieces);
    if (found.gzipped) await pipeline(source, createGunzip(), res);
    else await pipeline(source, res);
  },
};
