import { limits } from "@wallet/contracts/limits";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { readRoute } from "./read-route.ts";
import { roundAnswer } from "./round-shape.ts";
import { roundPath } from "./shapes.ts";

/** `GET /v1/rounds/:round_id`: open or closed, its close, side effects, reconciliation and report. */
export const getRoundRoute = readRoute({
  path: "/v1/rounds/:round_id",
  summary:
    "Round close, each side effect's state (pending, published, applied, dead), the failures of any that failed on its own, reconciliation (its first 100 differences, and `summary`: every difference counted and summed per kind, millis as decimal text), the latest round report (money as decimal text, schemaVersion 2)",
  param: {
    name: "round_id",
    noun: "round",
    schema: roundPath.shape.round_id,
    problem: `must be 1 to ${limits.roundId.max} characters, not only whitespace`,
  },
  answer: roundAnswer,
  find: ({ ctx }, tenantId, roundId) => roundStatus({ ctx, input: { tenantId, roundId } }),
});
