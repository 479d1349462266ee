import { operatorIdField } from "@wallet/contracts/operator-api";
import { z } from "zod";
import { documentedPath, type OperatorRoute } from "./route.ts";
import { operatorRoutes } from "./route-list.ts";
import { errorAnswer } from "./routes/shapes.ts";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/**
 * JSON Schema of a zod shape, as the wire carries it: `io: "input"` documents what the schema takes
 * (a number where it makes a bigint of money), a bigint is the JSON integer it is written as, and
 * any other shape zod cannot write becomes `{}`, which openapi.test.ts refuses (none slips in).
 * No `$schema`: each is a part of this document, not a document of its own.
 */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _document, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const type = zodSchema._zod.def.type;
      // stringifyJson writes a bigint (money, inside) digit for digit: a JSON integer.
      if (type === "bigint") jsonSchema.type = "integer";
      // Any JSON on purpose (an array's elements checked further on, a stored column): say so.
      if ((type === "unknown" || type === "any") && !jsonSchema.description)
        jsonSchema.description = "any JSON value";
      // zod spells a timestamp's format out as a long pattern as well: the format says it.
      if (jsonSchema.format === "date-time" || jsonSchema.format === "date") delete jsonSchema.pattern;
    },
  });
  return rest as JsonSchema;
}

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
/**
 * Every JSON body may name the operator, on every route (operator.ts reads it for all of them), so it
 * is documented here once: the same rule as `?operatorId=`, and both only if equal.
 */
const operatorIdProperty = {
  ...jsonSchema(operatorIdField),
  description:
    "The operator, like ?operatorId=: a body and a query naming two operators is a 400; another operator than the token's is a 404",
};
const operatorQuery = {
  name: "operatorId",
  in: "query",
  required: false,
  schema: { type: "integer" },
  description: "The operator; may be omitted when only one is configured",
};

/** One parameter per property of a route's params or query shape; `operatorId` is every route's. */
function parameters(shape: z.ZodObject | undefined, where: "path" | "query") {
  if (!shape) return [];
  const schema = jsonSchema(shape);
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => name !== "operatorId")
    .map(([name, { description, ...property }]) => ({
      name,
      in: where,
      required: where === "path" || (schema.required ?? []).includes(name),
      schema: property,
      ...(description === undefined ? {} : { description }),
    }));
}

/** The body's schema with `operatorId` added; a POST without a body of its own takes one naming only that. */
function requestBody(route: OperatorRoute) {
  if (!route.request.body && route.method === "get") return {};
  const body = route.request.body ? jsonSchema(route.request.body) : { type: "object" };
  const schema = { ...body, properties: { ...body.properties, operatorId: operatorIdProperty } };
  return {
    requestBody: { required: Boolean(route.request.body), content: { "application/json": { schema } } },
  };
}

function responses(route: OperatorRoute) {
  const documented = Object.entries(route.responses).map(([status, answer]) => {
    if (typeof answer === "string") return [status, { description: answer, content: errorContent }];
    const content = answer.mediaType
      ? { [answer.mediaType]: { schema: { type: "string", format: "binary" } } }
      : answer.schema && { "application/json": { schema: jsonSchema(answer.schema) } };
    return [status, { description: answer.description, ...(content ? { content } : {}) }];
  });
  // What the bearer check answers before any route runs (bearer.ts).
  const bearer: Array<[string, object]> = [
    ["401", { description: "missing or wrong bearer token", content: errorContent }],
  ];
  if (route.method !== "get")
    bearer.push(["403", { description: "a read token may only GET", content: errorContent }]);
  return Object.fromEntries([...documented, ...bearer]);
}

function operation(route: OperatorRoute) {
  return {
    summary: route.summary,
    parameters: [
      ...parameters(route.request.params, "path"),
      operatorQuery,
      ...parameters(route.request.query, "query"),
    ],
    ...requestBody(route),
    responses: responses(route),
  };
}

/** The OpenAPI 3.1 document of these routes, served at /openapi.json. */
export function buildOpenApiDocument(routes: readonly OperatorRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = documentedPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Operator wallet gateway: operator API",
      version: "1",
      description:
        "The operator's own API. Money is integer millis. Errors are {code, message} with code = HTTP status. " +
        "Bearer tokens: one operator each (`pnpm tokens create --operator <id> --scope read|write`); such a token " +
        "sees only its operator (another operator's data is 404), a read token may only GET (403). " +
        "OPERATOR_API_TOKEN acts for every operator (development and the demo).",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { Error: jsonSchema(errorAnswer) },
    },
    security: [{ bearer: [] }],
    paths,
  };
}

export const openApiDocument = buildOpenApiDocument(operatorRoutes);
