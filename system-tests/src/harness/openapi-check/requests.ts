import fc from "fast-check";
import { type Broken, brokenBodyOf, brokenValueOf } from "./invalid-value.ts";
import type { Operation, Parameter } from "./operations.ts";
import { arbitraryOf, type Examples, type Sources } from "./schema-arbitrary.ts";
import { parameterValue, schemaErrors } from "./schema-validator.ts";

/**
 * Who a request says it is (a bearer token, a signature), as headers over the body's bytes as sent.
 * `refused`: no answer but a 4xx is right for it (no token, a revoked one, a wrong signature).
 */
export interface Credentials {
  name: string;
  refused: boolean;
  headers: (body: Buffer | undefined) => Record<string, string>;
}

/** What the document cannot say and the test knows: who may call, which ids exist, how large a body may be. */
export interface ClientHooks {
  /** Each request draws its caller from this: its weights say how often each kind of caller comes. */
  credentials: fc.Arbitrary<Credentials>;
  examples?: Examples;
  /** The body limit of an operation (OpenAPI has no word for it): an oversized body is 1 KiB past it. */
  bodyLimitBytes?: (operation: Operation, body: unknown) => number;
}

/**
 * What a request tries: `examples` only the values offered where any are (the requests meant to
 * succeed), `valid` any its schemas take, `parameter` one path or query parameter broken, `body` a
 * broken body, `malformed` bytes that are not JSON, `oversized` a body past its limit, `content` a
 * Content-Type, charset or Content-Encoding other than plain JSON.
 */
export const requestKinds = [
  "examples",
  "valid",
  "parameter",
  "body",
  "malformed",
  "oversized",
  "content",
] as const;
export type RequestKind = (typeof requestKinds)[number];

export interface GeneratedRequest {
  operation: Operation;
  kind: RequestKind;
  /** What was done to it, for a report: `body: without amount`, `query operatorId: a string for integer`. */
  how: string;
  /** Why only a 4xx may answer it; undefined when the document takes it (it may still be refused). */
  mustRefuse?: string;
  method: string;
  /** Path and query, ready to append to the base URL. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Which kinds of request make sense for an operation: no body, no body mutations. */
export function kindsFor(operation: Operation): RequestKind[] {
  const hasParameters = operation.parameters.some((parameter) => brokenValueOf(parameter.schema));
  return requestKinds.filter((kind) => {
    if (kind === "parameter") return hasParameters;
    if (kind === "valid" || kind === "examples") return true;
    return operation.body !== undefined;
  });
}

/** A path segment that stays a segment: never empty and never `.`/`..` (a URL resolves those away). */
const segmentSafe = (text: string) => text !== "" && text !== "." && text !== "..";

/** A parameter's value as the text a URL carries. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

interface Parameters {
  values: Map<Parameter, string>;
  broken?: { parameter: Parameter; how: string };
}

function parametersOf(operation: Operation, sources: Sources, breakOne: boolean): fc.Arbitrary<Parameters> {
  const used = operation.parameters.filter(
    (parameter) => parameter.in === "path" || parameter.in === "query",
  );
  const values = fc.tuple(
    ...used.map((parameter) => {
      const value = arbitraryOf(parameter.schema, sources, parameter.name).map(asText);
      const safe = parameter.in === "path" ? value.filter(segmentSafe) : value;
      // An optional query parameter is left out one time in four.
      return parameter.required
        ? safe.map((text): string | undefined => text)
        : fc.option(safe, { nil: undefined, freq: 4 });
    }),
  );
  const plain = values.map((texts) => ({
    values: new Map(
      used.flatMap((parameter, index) => (texts[index] === undefined ? [] : [[parameter, texts[index]]])),
    ),
  }));
  if (!breakOne) return plain;
  const breakable = used.flatMap((parameter) => {
    const broken = brokenValueOf(parameter.schema);
    return broken ? [{ parameter, broken }] : [];
  });
  return fc.tuple(plain, fc.constantFrom(...breakable)).chain(([{ values: map }, { parameter, broken }]) =>
    broken
      .map(({ value, how }: Broken) => ({ text: asText(value), how }))
      .filter(({ text }) => parameter.in !== "path" || segmentSafe(text))
      .map(({ text, how }) => ({
        values: new Map([...map, [parameter, text]]),
        broken: { parameter, how: `${parameter.in} ${parameter.name}: ${how}` },
      })),
  );
}

/** The URL's path and query from the parameters' texts. */
function targetOf(operation: Operation, { values }: Parameters): string {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const [parameter, text] of values) {
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    else query.append(parameter.name, text);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Why the document refuses these parameters, if it does: a required one missing or one off its schema. */
function parameterProblem(operation: Operation, { values }: Parameters): string | undefined {
  for (const parameter of operation.parameters) {
    const text = values.get(parameter);
    if (text === undefined) {
      if (parameter.required && (parameter.in === "path" || parameter.in === "query"))
        return `${parameter.name} missing`;
      continue;
    }
    const errors = schemaErrors(parameter.schema, parameterValue(parameter.schema, text));
    if (errors.length) return `${parameter.in} ${parameter.name}: ${errors.join("; ")}`;
  }
  return undefined;
}

/** The body and what makes it what it is, before credentials are added. */
interface Body {
  value?: unknown;
  bytes?: Buffer;
  how: string;
  contentType?: string;
  extraHeaders?: Record<string, string>;
}

function bodyOf(
  operation: Operation,
  kind: RequestKind,
  sources: Sources,
  hooks: ClientHooks,
): fc.Arbitrary<Body> {
  const schema = operation.body?.schema;
  if (!schema) return fc.constant({ how: "" });
  const valid = arbitraryOf(schema, sources);
  const json = (value: unknown, how: string): Body => ({
    value,
    bytes: Buffer.from(JSON.stringify(value)),
    how,
  });
  switch (kind) {
    case "body":
      return brokenBodyOf(schema, sources).map(({ value, how }) => json(value, `body: ${how}`));
    case "malformed":
      return fc
        .oneof(
          valid.map((value) => Buffer.from(JSON.stringify(value).slice(0, -1))),
          fc.constant(Buffer.from('{"a":1,}')),
          fc.uint8Array({ minLength: 1, maxLength: 32 }).map((bytes) => Buffer.from([0xff, ...bytes])),
        )
        .map((bytes) => ({ bytes, how: "body: not JSON" }));
    case "oversized":
      return valid.map((value) => {
        const limit = hooks.bodyLimitBytes?.(operation, value) ?? 64 * 1024;
        const padded = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
        return json({ ...padded, padding: "p".repeat(limit + 1024) }, `body: past ${limit} bytes`);
      });
    case "content":
      return fc
        .tuple(
          valid,
          fc.constantFrom(
            { how: "Content-Encoding the server cannot read", headers: { "content-encoding": "compress" } },
            { how: "gzip named, bytes not gzip", headers: { "content-encoding": "gzip" } },
            { how: "charset latin1", contentType: "application/json; charset=latin1" },
            { how: "text/plain", contentType: "text/plain" },
            { how: "no Content-Type", contentType: "" },
          ),
        )
        .map(([value, variant]) => ({
          ...json(value, `content: ${variant.how}`),
          ...("contentType" in variant ? { contentType: variant.contentType } : {}),
          ...("headers" in variant ? { extraHeaders: variant.headers } : {}),
        }));
    default:
      return valid.map((value) => json(value, ""));
  }
}

/** Why the document refuses this body, if it does. */
function bodyProblem(operation: Operation, kind: RequestKind, body: Body): string | undefined {
  if (kind === "malformed") return "body is not JSON";
  if (kind === "oversized") return "body past its limit";
  if (body.extraHeaders) return "an encoding the server does not read";
  if (body.value === undefined || !operation.body) return undefined;
  return schemaErrors(operation.body.schema, body.value).join("; ") || undefined;
}

/**
 * Requests of one kind for one operation, generated from its documented parameters and body (and
 * the hooks' examples), each with credentials from the hooks and, where the document refuses what
 * it sends, why only a 4xx may answer it (`schemaErrors` decides that, not the mutation's intent: an
 * `anyOf` may take what one part refuses).
 */
export function requestsOf(
  operation: Operation,
  kind: RequestKind,
  hooks: ClientHooks,
): fc.Arbitrary<GeneratedRequest> {
  const sources = { examples: hooks.examples ?? (() => undefined), onlyOffered: kind === "examples" };
  return fc
    .tuple(
      parametersOf(operation, sources, kind === "parameter"),
      bodyOf(operation, kind, sources, hooks),
      hooks.credentials,
    )
    .map(([parameters, body, credentials]) => {
      const headers: Record<string, string> = { ...credentials.headers(body.bytes), ...body.extraHeaders };
      if (body.bytes && body.contentType !== "")
        headers["content-type"] = body.contentType ?? "application/json";
      const mustRefuse =
        (credentials.refused ? `credentials: ${credentials.name}` : undefined) ??
        parameterProblem(operation, parameters) ??
        bodyProblem(operation, kind, body);
      const how = [parameters.broken?.how, body.how, credentials.name].filter(Boolean).join(", ");
      return {
        operation,
        kind,
        how: how || "valid",
        ...(mustRefuse ? { mustRefuse } : {}),
        method: operation.method,
        target: targetOf(operation, parameters),
        headers,
        ...(body.bytes && operation.method !== "GET" ? { body: body.bytes } : {}),
      };
    });
}
