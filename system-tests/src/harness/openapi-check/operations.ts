/** A JSON Schema as an OpenAPI 3.1 document holds it (draft 2020-12), read loosely. */
export type JsonSchema = { [keyword: string]: unknown };

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
}

export interface DocumentedResponse {
  description?: string;
  /** Media type → its schema; absent: the answer has no body. */
  content?: Record<string, { schema?: JsonSchema }>;
}

/** One operation of a document, its `$ref`s resolved. */
export interface Operation {
  method: string;
  /** As documented: `/v1/players/{user_id}`. */
  path: string;
  /** `METHOD /path`: what counts and problems are named by. */
  route: string;
  parameters: Parameter[];
  body?: { required: boolean; schema: JsonSchema };
  responses: Record<string, DocumentedResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const methods = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/** Every operation the document lists, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  if (!document.openapi?.startsWith("3.1"))
    throw new Error(`not an OpenAPI 3.1 document: ${document.openapi}`);
  const resolve = (node: unknown) => inlineRefs(node, document) as Record<string, unknown>;
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.has(method))
      .map(([method, raw]) => {
        const operation = resolve(raw);
        const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> })
          ?.content;
        const json = content?.["application/json"];
        return {
          method: method.toUpperCase(),
          path,
          route: `${method.toUpperCase()} ${path}`,
          parameters: ((operation.parameters ?? []) as Parameter[]).map((parameter) => ({
            ...parameter,
            required: Boolean(parameter.required),
          })),
          ...(json
            ? {
                body: {
                  required: Boolean((operation.requestBody as { required?: boolean }).required),
                  schema: json.schema,
                },
              }
            : {}),
          responses: operation.responses as Record<string, DocumentedResponse>,
        };
      }),
  );
}

/** `node` with each local `$ref` (`#/components/…`) replaced by what it names; a cycle is refused. */
function inlineRefs(node: unknown, document: OpenApiDocument, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, document, seen));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  const inlined = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inlineRefs(value, document, seen)]),
  );
  if (typeof $ref !== "string") return inlined;
  if (!$ref.startsWith("#/") || seen.includes($ref)) throw new Error(`cannot inline $ref ${$ref}`);
  const target = $ref
    .slice(2)
    .split("/")
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], document);
  if (target === undefined) throw new Error(`$ref ${$ref} names nothing`);
  const resolved = inlineRefs(target, document, [...seen, $ref]);
  // 2020-12 lets a $ref stand beside other keywords: both hold.
  return Object.keys(inlined).length ? { allOf: [resolved, inlined] } : resolved;
}
