import fc from "fast-check";
import type { JsonSchema } from "./operations.ts";

/**
 * Values worth trying for a field or parameter of this name (ids that exist, an operator that is
 * configured), beside what its schema generates: a client that only ever sends random ids would
 * only ever be told "not found". Undefined: none.
 */
export type Examples = (name: string) => readonly unknown[] | undefined;

/**
 * Where values come from: the schema, and what is offered (`examples`, the schema's own examples and
 * default), mostly what is offered; only that, where something is, with `onlyOffered` (the requests
 * that try to succeed, as schemathesis's explicit-examples phase does).
 */
export interface Sources {
  examples: Examples;
  onlyOffered?: boolean;
}

const safe = Number.MAX_SAFE_INTEGER;
/** How far past its minimum a generated string or array goes, unless a boundary is tried. */
const spread = 16;

const types = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : [schema.type].flat().map(String);

/** `allOf`'s parts as one schema: enough for the documents checked here (a $ref with a sibling). */
export function merged(schema: JsonSchema): JsonSchema {
  const { allOf, ...rest } = schema;
  if (!Array.isArray(allOf)) return schema;
  const all: JsonSchema = { ...rest, properties: { ...(rest.properties as object) }, required: [] };
  for (const part of (allOf as JsonSchema[]).map(merged)) {
    const { properties, required, ...keywords } = part;
    Object.assign(all, keywords);
    Object.assign(all.properties as object, properties);
    (all.required as string[]).push(...((required as string[] | undefined) ?? []));
  }
  (all.required as string[]).push(...((rest.required as string[] | undefined) ?? []));
  // No part named a property: the whole is no object schema of its own making.
  if (Object.keys(all.properties as object).length === 0) delete all.properties;
  return all;
}

/** The bounds an integer or number schema sets, within the safe integers. */
export function numberBounds(schema: JsonSchema): { min: number; max: number } {
  const integer = types(schema).includes("integer");
  const step = integer ? 1 : Number.EPSILON;
  const min = Math.max(
    -safe,
    (schema.minimum as number | undefined) ?? -safe,
    schema.exclusiveMinimum === undefined ? -safe : (schema.exclusiveMinimum as number) + step,
  );
  const max = Math.min(
    safe,
    (schema.maximum as number | undefined) ?? safe,
    schema.exclusiveMaximum === undefined ? safe : (schema.exclusiveMaximum as number) - step,
  );
  return { min: integer ? Math.ceil(min) : min, max: integer ? Math.floor(max) : max };
}

/** The value's own pieces first: small numbers near the bounds, the bounds themselves, any within. */
function integerOf(schema: JsonSchema): fc.Arbitrary<number> {
  const { min, max } = numberBounds(schema);
  const near = (from: number) =>
    fc.integer({ min: Math.max(min, from - 1000), max: Math.min(max, from + 1000) });
  return fc.oneof(
    { weight: 3, arbitrary: near(Math.min(Math.max(0, min), max)) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const format = schema.format as string | undefined;
  const dates = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true });
  if (format === "date-time") return dates.map((date) => date.toISOString());
  if (format === "date") return dates.map((date) => date.toISOString().slice(0, 10));
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const declared = schema.maxLength as number | undefined;
  const maxLength = declared ?? minLength + spread;
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= minLength && length <= maxLength;
  };
  if (typeof schema.pattern === "string") {
    const pattern = new RegExp(schema.pattern, "u");
    return fc.stringMatching(pattern, { maxLength: Math.min(maxLength, minLength + spread) }).filter(fits);
  }
  // Printable ASCII mostly, any code point (but a lone surrogate) sometimes, and the longest allowed.
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.constant("grapheme-ascii" as const) },
    fc.constant("binary" as const),
  );
  const ordinary = unit.chain((kind) =>
    fc.string({ unit: kind, minLength, maxLength: Math.min(maxLength, minLength + spread) }),
  );
  return declared !== undefined && declared <= 4096
    ? fc.oneof({ weight: 6, arbitrary: ordinary }, fc.constant("x".repeat(declared)))
    : ordinary;
}

function objectOf(schema: JsonSchema, sources: Sources): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, sources, name)]),
  );
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name in model);
  const named = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const extra = schema.additionalProperties;
  // A map (zod's record): keys from its propertyNames, values from its additionalProperties.
  if (Object.keys(properties).length === 0 && extra && typeof extra === "object") {
    const keys = schema.propertyNames
      ? (arbitraryOf(schema.propertyNames as JsonSchema, sources) as fc.Arbitrary<string>)
      : fc.string({ maxLength: 12 });
    return fc.dictionary(keys, arbitraryOf(extra as JsonSchema, sources), {
      maxKeys: 4,
      noNullPrototype: true,
    });
  }
  return named;
}

/**
 * A fast-check arbitrary of values `schema` accepts (JSON Schema 2020-12 as OpenAPI 3.1 writes it):
 * types, `const`, `enum`, `anyOf`/`oneOf`/`allOf`, bounds, lengths, patterns, the `date-time` and
 * `date` formats, objects with their required and optional properties, maps, arrays; a schema that
 * says nothing is any JSON value. The schema's `examples` and `default`, and what `examples` offers
 * for this `name`, are tried beside it.
 */
export function arbitraryOf(schema: JsonSchema, sources: Sources, name = ""): fc.Arbitrary<unknown> {
  const generated = generatedOf(merged(schema), sources);
  const offered = [
    ...(sources.examples(name) ?? []),
    ...((schema.examples as unknown[] | undefined) ?? []),
    ...(schema.default === undefined ? [] : [schema.default]),
  ];
  if (offered.length === 0) return generated;
  if (sources.onlyOffered) return fc.constantFrom(...offered);
  // Mostly what is offered, so most requests reach past the checks of ids to the route's own work.
  return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...offered) }, { weight: 1, arbitrary: generated });
}

function generatedOf(schema: JsonSchema, sources: Sources): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const { anyOf, oneOf, ...base } = schema;
  const union = (anyOf ?? oneOf) as JsonSchema[] | undefined;
  // Beside a type or properties, each part of a union only adds to them (`anyOf: [{required: [a]}, …]`).
  const shared = base.type !== undefined || base.properties !== undefined;
  if (union)
    return fc.oneof(
      ...union.map((part) => arbitraryOf(shared ? merged({ allOf: [base, part] }) : part, sources)),
    );
  const [first, ...others] = types(schema);
  if (others.length)
    return fc.oneof(...[first, ...others].map((type) => arbitraryOf({ ...schema, type }, sources)));
  switch (first) {
    case "string":
      return stringOf(schema);
    case "integer":
      return integerOf(schema);
    case "number": {
      const { min, max } = numberBounds(schema);
      return fc
        .double({ min, max, noNaN: true, noDefaultInfinity: true })
        .map((n) => (Object.is(n, -0) ? 0 : n));
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.min((schema.maxItems as number | undefined) ?? minLength + 4, minLength + 4);
      const items = schema.items
        ? arbitraryOf(schema.items as JsonSchema, sources)
        : fc.jsonValue({ maxDepth: 1 });
      return fc.array(items, { minLength, maxLength });
    }
    case "object":
      return objectOf(schema, sources);
    default:
      return schema.properties ? objectOf(schema, sources) : fc.jsonValue({ maxDepth: 2 });
  }
}
