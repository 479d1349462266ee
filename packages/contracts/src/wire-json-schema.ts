import { z } from "zod";

export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/**
 * JSON Schema of a zod shape, as the wire carries it, for the OpenAPI documents (the operator API's,
 * the callbacks'): `io: "input"` documents what the schema takes (a number where it makes a bigint of
 * money), a bigint is the JSON integer `stringifyJson` writes, and any other shape zod cannot write
 * becomes `{}` saying it is any JSON value. No `$schema`: each is a part of a document, not one of its own.
 *
 * `answer`: the shape of something we send. Its objects then name every field they may carry
 * (`additionalProperties: false`, but for a loose object), so a client, or our own checks, can tell a
 * field we send undocumented; a request's objects stay open, since zod drops a field it does not name
 * rather than refusing it.
 */
export function wireJsonSchema(schema: z.ZodType, options: { answer?: boolean } = {}): JsonSchema {
  const { $schema: _document, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const { type, catchall } = zodSchema._zod.def as { type: string; catchall?: unknown };
      if (type === "bigint") jsonSchema.type = "integer";
      // Any JSON on purpose (an array's elements checked further on, a stored column): say so.
      if ((type === "unknown" || type === "any") && !jsonSchema.description)
        jsonSchema.description = "any JSON value";
      // zod spells a timestamp's format out as a long pattern as well: the format says it.
      if (jsonSchema.format === "date-time" || jsonSchema.format === "date") delete jsonSchema.pattern;
      if (options.answer && type === "object" && catchall === undefined)
        jsonSchema.additionalProperties = false;
    },
  });
  return rest as JsonSchema;
}
