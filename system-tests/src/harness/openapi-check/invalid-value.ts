import fc from "fast-check";
import type { JsonSchema } from "./operations.ts";
import { arbitraryOf, merged, numberBounds, type Sources } from "./schema-arbitrary.ts";

/** A value meant to be refused, and how it was broken (what a problem report names). */
export interface Broken {
  value: unknown;
  how: string;
}

/** The JSON types a schema takes (those of its union's parts when it names none itself). */
const typesOf = (schema: JsonSchema): string[] => {
  if ("const" in schema || Array.isArray(schema.enum)) return [];
  if (schema.type !== undefined) return [schema.type].flat().map(String);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return union ? union.flatMap((part) => typesOf(merged(part))) : [];
};

/** One value of each JSON type: those of a type the schema does not take are wrong-typed. */
const samples: Array<[string, unknown]> = [
  ["string", "not-a-number"],
  ["integer", 7],
  ["number", 1.5],
  ["boolean", true],
  ["null", null],
  ["array", [1, "two"]],
  ["object", { unexpected: 1 }],
];

/**
 * Values `schema` refuses, each saying how: a value of another JSON type, a number past a bound or
 * not an integer, a string too long, too short, off its pattern or its format, a word outside an
 * enum. The caller checks each against the schema (an `anyOf` may take what one part refuses), so a
 * candidate here only has to be likely refused. Undefined when nothing can be said against it.
 */
export function brokenValueOf(schema: JsonSchema): fc.Arbitrary<Broken> | undefined {
  const own = merged(schema);
  const types = typesOf(own);
  const candidates: Broken[] = [];
  if (types.length)
    for (const [type, value] of samples)
      if (!types.includes(type) && !(type === "integer" && types.includes("number")))
        candidates.push({ value, how: `a ${type} for ${types.join("|")}` });
  if (types.includes("integer") || types.includes("number")) {
    const { min, max } = numberBounds(own);
    if (min > -Number.MAX_SAFE_INTEGER) candidates.push({ value: min - 1, how: `below its minimum ${min}` });
    if (max < Number.MAX_SAFE_INTEGER) candidates.push({ value: max + 1, how: `above its maximum ${max}` });
    candidates.push({ value: 2 ** 53, how: "past 2^53" });
    if (types.includes("integer") && !types.includes("number"))
      candidates.push({ value: 2.5, how: "not an integer" });
  }
  if (types.includes("string")) {
    const minLength = (own.minLength as number | undefined) ?? 0;
    const maxLength = own.maxLength as number | undefined;
    if (maxLength !== undefined)
      candidates.push({ value: "y".repeat(maxLength + 1), how: `longer than ${maxLength}` });
    if (minLength > 0)
      candidates.push({ value: "y".repeat(minLength - 1), how: `shorter than ${minLength}` });
    if (typeof own.pattern === "string")
      candidates.push(
        // Whitespace alone: what no pattern of these documents takes (an id's `\S`, a currency, a cursor).
        { value: " ", how: `off its pattern ${own.pattern}` },
        { value: "\t\n", how: `off its pattern ${own.pattern}` },
      );
    if (own.format) candidates.push({ value: "not a date", how: `not a ${String(own.format)}` });
  }
  if (Array.isArray(own.enum) || "const" in own)
    candidates.push({ value: "NOT_ONE_OF_THEM", how: "outside its enum" });
  if (types.includes("array") && typeof own.maxItems === "number")
    candidates.push({ value: Array(own.maxItems + 1).fill(0), how: `more than ${own.maxItems} items` });
  return candidates.length ? fc.constantFrom(...candidates) : undefined;
}

/**
 * A body `schema` (an object, or a union of objects) refuses: a valid one with a required field
 * left out, one field broken (`brokenValueOf`), a field it does not name added, or no object at all.
 */
export function brokenBodyOf(schema: JsonSchema, sources: Sources): fc.Arbitrary<Broken> {
  const own = merged(schema);
  const { anyOf, oneOf, ...base } = own;
  const union = (anyOf ?? oneOf) as JsonSchema[] | undefined;
  // Beside properties, a union's parts only add to them (`anyOf: [{required: [a]}, …]`).
  const parts = (union ?? [own]).map((part) =>
    base.properties ? merged({ allOf: [base, part] }) : merged(part),
  );
  const objects = parts.filter((part) => part.properties);
  const notAnObject = fc.constantFrom<Broken>(
    { value: [], how: "an array for the body" },
    { value: "body", how: "a string for the body" },
    { value: 42, how: "a number for the body" },
    { value: null, how: "null for the body" },
  );
  const mutations = objects.flatMap((object) => {
    const valid = arbitraryOf(object, sources) as fc.Arbitrary<Record<string, unknown>>;
    const properties = Object.entries(object.properties as Record<string, JsonSchema>);
    const required = (object.required as string[] | undefined) ?? [];
    const missing = required.map((name) =>
      valid.map((body) => {
        const { [name]: _left, ...rest } = body;
        return { value: rest, how: `without ${name}` };
      }),
    );
    const broken = properties.flatMap(([name, property]) => {
      const bad = brokenValueOf(property);
      return bad
        ? [
            fc.tuple(valid, bad).map(([body, { value, how }]) => ({
              value: { ...body, [name]: value },
              how: `${name}: ${how}`,
            })),
          ]
        : [];
    });
    const extra = valid.map((body) => ({
      value: { ...body, unexpected_field: "x" },
      how: "a field it does not name",
    }));
    return [...missing, ...broken, extra];
  });
  return mutations.length
    ? fc.oneof({ weight: 1, arbitrary: notAnObject }, { weight: 6, arbitrary: fc.oneof(...mutations) })
    : notAnObject;
}
