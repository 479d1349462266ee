import { callbacksOpenApi } from "@wallet/contracts/callbacks-openapi";
import { openApiDocument } from "@wallet/operator-api/openapi";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerProblems } from "./answer-check.ts";
import { brokenBodyOf } from "./invalid-value.ts";
import { type OpenApiDocument, type Operation, operationsOf } from "./operations.ts";
import { generateRequests } from "./run-check.ts";
import { arbitraryOf } from "./schema-arbitrary.ts";
import { schemaErrors } from "./schema-validator.ts";

/**
 * The generated client's own parts, on the two documents it checks: what it calls valid is valid, what
 * it breaks is broken, the same seed gives the same requests, and its check of an answer fails where
 * the document is wrong (so the end-to-end runs can fail at all).
 */
const documents = [openApiDocument, callbacksOpenApi].map(
  (document) => JSON.parse(JSON.stringify(document)) as OpenApiDocument,
);
const operations = documents.flatMap(operationsOf);
const none = { examples: () => undefined };
const withBody = operations.filter((operation) => operation.body);

describe("the generator", () => {
  it("makes bodies and parameters every schema of both documents takes", () => {
    for (const operation of operations) {
      const schemas = [
        ...operation.parameters.map((parameter) => parameter.schema),
        ...(operation.body ? [operation.body.schema] : []),
      ];
      for (const schema of schemas)
        for (const value of fc.sample(arbitraryOf(schema, none), { seed: 1, numRuns: 30 }))
          expect({ route: operation.route, value, errors: schemaErrors(schema, value) }).toEqual({
            route: operation.route,
            value,
            errors: [],
          });
    }
  });

  it("breaks bodies in ways their schema refuses, but for what the schema leaves room for", () => {
    for (const operation of withBody) {
      const schema = operation.body?.schema ?? {};
      const broken = fc.sample(brokenBodyOf(schema, none), { seed: 2, numRuns: 40 });
      const taken = broken.filter(({ value }) => schemaErrors(schema, value).length === 0);
      // A request body is open (zod drops a field it does not name), and an `anyOf` may spare a field
      // left out: such a request is sent as one the document takes, never as one it must refuse.
      const spared = taken.filter(
        ({ how }) => how !== "a field it does not name" && !how.startsWith("without "),
      );
      expect({ route: operation.route, spared, refused: taken.length < broken.length }).toEqual({
        route: operation.route,
        spared: [],
        refused: true,
      });
    }
  });

  it("gives the same requests for the same seed, and others for another", () => {
    const hooks = {
      credentials: fc.constant({ name: "anyone", refused: false, headers: () => ({}) }),
    };
    const targets = (seed: number) =>
      generateRequests(operations, { hooks, seed, requests: 200 }).map(
        (request) => `${request.target} ${request.body?.toString("utf8")}`,
      );
    expect(targets(7)).toEqual(targets(7));
    expect(targets(7)).not.toEqual(targets(8));
  });
});

describe("the check of an answer", () => {
  const adjust = operations.find(
    (operation) => operation.route === "POST /v1/players/{user_id}/adjustments",
  ) as Operation;
  const json = (status: number, body: unknown) => ({
    status,
    contentType: "application/json; charset=utf-8",
    bytes: Buffer.from(JSON.stringify(body)),
  });
  const applied = {
    user_id: "u",
    operator_tx_id: "t",
    reference: "r",
    amount: 5,
    reason: "x",
    new_balance: 10,
    currency: "EUR",
  };

  it("takes what the document says", () => {
    expect(answerProblems(adjust, json(201, applied))).toEqual([]);
    expect(answerProblems(adjust, json(402, { code: 402, message: "short" }))).toEqual([]);
  });

  it("fails a status the document does not list, a field it does not name, a body off its shape", () => {
    expect(answerProblems(adjust, json(418, { code: 418, message: "teapot" }))).toEqual([
      "status 418 is not documented",
    ]);
    expect(answerProblems(adjust, json(201, { ...applied, secret: "s" }))).toEqual([
      "201 body: (root) must NOT have additional properties (secret)",
    ]);
    expect(answerProblems(adjust, json(201, { ...applied, amount: "5" }))).toEqual([
      "201 body: /amount must be integer",
    ]);
    expect(
      answerProblems(adjust, { status: 201, contentType: "text/html", bytes: Buffer.from("<p>") }),
    ).toEqual(["201 answered text/html, documented application/json"]);
  });
});
