import type { Operation } from "./operations.ts";
import { schemaErrors } from "./schema-validator.ts";

export interface Answer {
  status: number;
  contentType: string;
  bytes: Buffer;
}

/**
 * What is wrong with an answer against what its operation documents, one line each; empty when the
 * document tells the truth: its status is listed, its media type is the documented one, a JSON body
 * fits the status's schema (where that schema closes an object, a field it does not name is wrong),
 * and an answer documented without a body has none.
 */
export function answerProblems(operation: Operation, answer: Answer): string[] {
  const documented = operation.responses[String(answer.status)] ?? operation.responses.default;
  if (!documented) return [`status ${answer.status} is not documented`];
  const content = documented.content;
  if (!content)
    return answer.bytes.length ? [`${answer.status} is documented without a body, and has one`] : [];
  const mediaType = answer.contentType.split(";")[0]?.trim() ?? "";
  const schema = content[mediaType]?.schema;
  if (!(mediaType in content))
    return [
      `${answer.status} answered ${mediaType || "no media type"}, documented ${Object.keys(content).join(", ")}`,
    ];
  if (mediaType !== "application/json" || !schema) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.bytes.toString("utf8"));
  } catch {
    return [`${answer.status} is not JSON: ${answer.bytes.toString("utf8").slice(0, 80)}`];
  }
  return schemaErrors(schema, body).map((error) => `${answer.status} body: ${error}`);
}
