import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { JsonSchema } from "./operations.ts";

/**
 * JSON Schema 2020-12, the dialect of OpenAPI 3.1, with its formats checked (`date-time`, `date`).
 * Not strict: OpenAPI's own keywords beside a schema's (`example`, `x-…`) are not errors.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** What is wrong with `value` against `schema`, one line per error; empty when it fits. */
export function schemaErrors(schema: JsonSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || "(root)";
  const extra =
    error.keyword === "additionalProperties"
      ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
      : "";
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

/**
 * A path or query parameter's text read as the type its schema names, as a server reading it would:
 * `"12"` is the integer 12, `"true"` the boolean; text that is none of those stays text (and fails an
 * integer's schema). A number's grammar is JSON's, so `0x10` stays text.
 */
export function parameterValue(schema: JsonSchema, text: string): unknown {
  const types = [schema.type, ...((schema.anyOf as JsonSchema[] | undefined) ?? []).map((s) => s.type)]
    .flat()
    .filter(Boolean);
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text))
    return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}
