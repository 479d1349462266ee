import { z } from "zod";
import { callbacksOpenApi } from "./callbacks-openapi.ts";
import { closeRoundEvent, roundReport } from "./side-effects.ts";

/**
 * The payloads other teams consume, as JSON Schema generated from the zod shapes the code itself
 * parses with, so the published schema cannot drift from what is sent (`json-schemas.test.ts`
 * compares them with `docs/schemas/`; `pnpm schemas` rewrites the files).
 */
export const publishedSchemas: Record<string, z.ZodType> = {
  /** The `reporting` queue's job data: one per closed round (`docs/side-effects.md`). */
  "round-report": roundReport.describe(
    "A round report: the job data on the `reporting` queue, one per (operator, round). Deduplicate on eventId.",
  ),
  /** The `side-effects-<topic>` queues' job data: the events one relay turn claimed for that topic. */
  "side-effect-job": z
    .object({ events: z.array(closeRoundEvent).min(1) })
    .describe(
      "A side-effect job: the CLOSE_ROUND events of one relay turn for one topic. Each is applied once per (topic, eventId).",
    ),
};

/**
 * The file text of each published schema, by file name (`<name>.schema.json`), and of the callbacks'
 * OpenAPI document (`callbacks.openapi.json`, what the gateway serves at `GET /openapi.json`).
 */
export function schemaFiles(): Record<string, string> {
  const fileText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    ...Object.fromEntries(
      Object.entries(publishedSchemas).map(([name, schema]) => [
        `${name}.schema.json`,
        fileText({
          $id: `https://example.com/wallet-gateway/schemas/${name}.schema.json`,
          ...z.toJSONSchema(schema),
        }),
      ]),
    ),
    "callbacks.openapi.json": fileText(callbacksOpenApi),
  };
}
