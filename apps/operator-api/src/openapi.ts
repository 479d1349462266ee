import { operatorIdField } from "@wallet/contracts/operator-api";
import { wireJsonSchema } from "@wallet/contracts/wire-json-schema";
import type { z } from "zod";
import { documentedPath, type OperatorRoute, readsBody } from "./route.ts";
import { operatorRoutes } from "./route-list.ts";
import { errorAnswer } from "./routes/shapes.ts";
import { documentedAnswers } from "./shared-answers.ts";

/** What we send: each object names every field it may carry. */
const answerSchema = (schema: z.ZodType) => wireJsonSchema(schema, { answer: true });

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
/**
 * Every JSON body may name the operator, on every route (operator.ts reads it for all of them), so it
 * is documented here once: the same rule as `?operatorId=`, and both only if equal.
 */
const operatorIdProperty = {
  ...wireJsonSchema(operatorIdField),
  description:
    "The operator, like ?operatorId=: a body and a query naming two operators is a 400; another operator than the token's is a 404",
};
const operatorQuery = {
  name: "operatorId",
  in: "query",
  required: false,
  schema: wireJsonSchema(operatorIdField),
  description: "The operator; may be omitted when only one is configured",
};

/** One parameter per property of a route's params or query shape; `operatorId` is every route's. */
function parameters(shape: z.ZodObject | undefined, where: "path" | "query") {
  if (!shape) return [];
  const schema = wireJsonSchema(shape);
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
  if (!readsBody(route)) return {};
  const body = route.request.body ? wireJsonSchema(route.request.body) : { type: "object" };
  const schema = { ...body, properties: { ...body.properties, operatorId: operatorIdProperty } };
  return {
    requestBody: { required: Boolean(route.request.body), content: { "application/json": { schema } } },
  };
}

/** Every answer of the route, its own and the shared ones (`shared-answers.ts`), each with its body. */
function responses(route: OperatorRoute) {
  return Object.fromEntries(
    Object.entries(documentedAnswers(route)).map(([status, answer]) => {
      if (typeof answer === "string") return [status, { description: answer, content: errorContent }];
      const content = answer.mediaType
        ? { [answer.mediaType]: { schema: { type: "string", format: "binary" } } }
        : answer.schema && { "application/json": { schema: answerSchema(answer.schema) } };
      return [status, { description: answer.description, ...(content ? { content } : {}) }];
    }),
  );
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
      schemas: { Error: answerSchema(errorAnswer) },
    },
    security: [{ bearer: [] }],
    paths,
  };
}

export const openApiDocument = buildOpenApiDocument(operatorRoutes);
