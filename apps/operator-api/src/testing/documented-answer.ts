import { describeIssues } from "@wallet/contracts/validation";
import { z } from "zod";
import type { OperatorRoute } from "../route.ts";
import { operatorRoutes } from "../route-list.ts";
import { errorAnswer } from "../routes/shapes.ts";
import { documentedAnswers } from "../shared-answers.ts";

/** The route serving `METHOD /path` (a concrete path, query allowed), by its Express pattern. */
export function routeOf(method: string, path: string): OperatorRoute | undefined {
  const bare = path.split("?")[0] ?? "";
  return operatorRoutes.find(
    (route) =>
      route.method === method.toLowerCase() &&
      new RegExp(`^${route.path.replace(/:\w+/g, "[^/]+")}$`).test(bare),
  );
}

/** Fields of `value` its zod shape does not name (zod drops them silently): the document misses them. */
function unnamedFields(schema: z.ZodType, value: unknown, at: string): string[] {
  if (value === null || value === undefined) return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return unnamedFields(schema.unwrap() as z.ZodType, value, at);
  if (schema instanceof z.ZodArray && Array.isArray(value))
    return value.flatMap((item, index) =>
      unnamedFields(schema.element as z.ZodType, item, `${at}[${index}]`),
    );
  if (schema instanceof z.ZodObject && typeof value === "object") {
    const shape = schema.shape as Record<string, z.ZodType>;
    return Object.entries(value).flatMap(([key, field]) => {
      const fieldSchema = shape[key];
      if (fieldSchema) return unnamedFields(fieldSchema, field, `${at}.${key}`);
      // A loose object (the platform's launch answer) takes what it is given, on purpose.
      return schema._zod.def.catchall ? [] : [`${at}.${key}`];
    });
  }
  return [];
}

/**
 * What is wrong with an answer against the route's documented responses: a status not documented,
 * a body off its shape, or fields the shape does not name. Undefined when the document tells the truth.
 */
/** `body`: the parsed JSON, or the bytes of an answer that is not JSON (a Buffer). */
export function documentedAnswerProblem(
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | undefined {
  const route = routeOf(method, path);
  if (!route) return `${method} ${path}: no such route`;
  const answer = documentedAnswers(route)[status];
  if (answer === undefined) return `${method} ${route.path}: status ${status} is not documented`;
  if (typeof answer !== "string" && answer.mediaType)
    return Buffer.isBuffer(body)
      ? undefined
      : `${method} ${route.path} ${status}: not ${answer.mediaType} bytes`;
  const schema = typeof answer === "string" ? errorAnswer : answer.schema;
  if (!schema) return body === undefined ? undefined : `${method} ${route.path} ${status}: has a body`;
  const parsed = schema.safeParse(body);
  if (!parsed.success) return `${method} ${route.path} ${status}: ${describeIssues(parsed.error)}`;
  const unnamed = unnamedFields(schema, body, "body");
  return unnamed.length ? `${method} ${route.path} ${status}: undocumented ${unnamed.join(", ")}` : undefined;
}
