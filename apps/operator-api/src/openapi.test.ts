import { Router } from "express";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { publicRoutes } from "./app.ts";
import { listen } from "./listen.ts";
import { buildOpenApiDocument, openApiDocument } from "./openapi.ts";
import { operatorRoutes } from "./route-list.ts";
import { documentedRoutes, routeCoverage, servedRoutes } from "./testing/route-coverage.ts";
import { unwiredOperatorApi } from "./testing/unwired-api.ts";

type Operation = {
  responses: Record<string, { description?: string; content?: object }>;
  requestBody?: object;
};
const operations = Object.entries(openApiDocument.paths).flatMap(([path, methods]) =>
  Object.entries(methods as Record<string, Operation>).map(([method, operation]) => ({
    route: `${method.toUpperCase()} ${path}`,
    operation,
  })),
);

describe("the OpenAPI document, built from the routes themselves", () => {
  it("documents every route the app's router serves, and serves every route it documents", () => {
    const app = unwiredOperatorApi();
    expect(routeCoverage(app, openApiDocument, publicRoutes)).toEqual({ undocumented: [], unserved: [] });
    // Not vacuous: the walk sees all fifteen operator routes and the three public ones.
    expect(servedRoutes(app)).toHaveLength(18);
    expect(servedRoutes(app)).toEqual(expect.arrayContaining(publicRoutes));
    expect(documentedRoutes(openApiDocument)).toHaveLength(operatorRoutes.length);
  });

  it("fails on a route mounted outside the list, on one in a nested router, and on a documented one not served", () => {
    const app = unwiredOperatorApi();
    app.post("/v1/players/:user_id/undocumented", (_req, res) => res.end());
    expect(routeCoverage(app, openApiDocument, publicRoutes).undocumented).toEqual([
      "POST /v1/players/{user_id}/undocumented",
    ]);
    const nested = unwiredOperatorApi();
    const router = Router();
    router.get("/v1/hidden", (_req, res) => res.end());
    nested.use(router);
    expect(routeCoverage(nested, openApiDocument, publicRoutes).undocumented).toEqual(["ROUTER router"]);
    // A document listing a route no one serves (as a hand-written one drifts).
    const [first, ...rest] = operatorRoutes;
    if (!first) throw new Error("no routes");
    const shorter = unwiredOperatorApi();
    const extra = buildOpenApiDocument([...rest, first, { ...first, path: "/v1/ghosts/:id" }]);
    expect(routeCoverage(shorter, extra, publicRoutes).unserved).toEqual(["POST /v1/ghosts/{id}"]);
  });

  it("every operation lists its answers: a success with its JSON shape (204: none; bytes: binary), the bearer's 401, refusals as {code, message}", () => {
    for (const { route, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      const successes = statuses.filter((status) => status.startsWith("2"));
      expect({ route, successes: successes.length > 0, has401: statuses.includes("401") }).toEqual({
        route,
        successes: true,
        has401: true,
      });
      for (const [status, answer] of Object.entries(operation.responses)) {
        const content = answer.content as Record<string, { schema?: object }> | undefined;
        // A body that is not JSON (a refused close's bytes) is documented as binary.
        const schema = content?.["application/json"]?.schema ?? content?.["application/octet-stream"]?.schema;
        if (content?.["application/octet-stream"])
          expect(content["application/octet-stream"].schema).toEqual({ type: "string", format: "binary" });
        expect({ route, status, described: Boolean(answer.description), schema: Boolean(schema) }).toEqual({
          route,
          status,
          described: true,
          schema: status !== "204",
        });
        if (!status.startsWith("2")) expect(schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
      // A read token is refused on every write, before the route runs.
      if (route.startsWith("POST")) expect(statuses).toContain("403");
    }
  });

  it("every route gets the answers given in front of its handler from one place, a new route too", () => {
    const shared = ["400", "401", "404", "408", "431", "503"];
    const writes = ["403", "413", "415"];
    for (const { route, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      expect({ route, statuses }).toEqual({
        route,
        statuses: expect.arrayContaining(route.startsWith("POST") ? [...shared, ...writes] : shared),
      });
      // A read takes no body, so nothing about a body can refuse it.
      if (route.startsWith("GET")) expect(statuses.filter((status) => writes.includes(status))).toEqual([]);
    }
    const bare = {
      method: "post",
      path: "/v1/new",
      summary: "new",
      request: {},
      handler: async () => {},
    } as const;
    const added = buildOpenApiDocument([{ ...bare, responses: { 201: { description: "made" } } }]);
    const addedOperation = added.paths["/v1/new"]?.post as unknown as Operation;
    expect(Object.keys(addedOperation.responses).sort()).toEqual(["201", ...shared, ...writes].sort());
    // A status the route names itself and the shared one as well: both reasons, the route's first.
    const both = buildOpenApiDocument([
      { ...bare, responses: { 201: { description: "made" }, 404: "no such thing" } },
    ]);
    const bothOperation = both.paths["/v1/new"]?.post as unknown as Operation;
    expect(bothOperation.responses["404"]?.description).toBe(
      "no such thing; or an operatorId other than the token's operator: the same answer whether it exists or not",
    );
  });

  it("money travels as integer JSON numbers, and no schema is left empty without saying what it holds", () => {
    const adjustment = openApiDocument.paths["/v1/players/{user_id}/adjustments"]
      ?.post as unknown as Operation;
    const applied = JSON.stringify(adjustment.responses["201"]);
    expect(JSON.parse(applied).content["application/json"].schema.properties.new_balance).toMatchObject({
      type: "integer",
      description: "integer millis",
    });
    // A bigint in an answer's shape is documented as the JSON integer stringifyJson writes.
    const [route] = operatorRoutes;
    if (!route) throw new Error("no routes");
    const withBigint = buildOpenApiDocument([
      { ...route, responses: { 200: { description: "x", schema: z.object({ amount: z.bigint() }) } } },
    ]);
    expect(JSON.stringify(withBigint)).toContain('"amount":{"type":"integer"}');
    // Any other shape JSON Schema cannot express (a transform's output) would come out as `{}`.
    const empty: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      const keys = Object.keys(node);
      if (where.endsWith(".schema") || /\.properties\.[^.]+$/.test(where) || where.endsWith(".items"))
        if (
          !keys.some((key) =>
            ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "description"].includes(key),
          )
        )
          empty.push(where);
      for (const [key, value] of Object.entries(node)) walk(value, `${where}.${key}`);
    };
    walk(openApiDocument.paths, "paths");
    expect(empty).toEqual([]);
  });

  it("is served at /openapi.json without a token, as built", async () => {
    const { server, address } = await listen(unwiredOperatorApi(), 0, "127.0.0.1");
    try {
      const response = await fetch(`http://127.0.0.1:${address.port}/openapi.json`);
      expect([response.status, await response.json()]).toEqual([
        200,
        JSON.parse(JSON.stringify(openApiDocument)),
      ]);
    } finally {
      server.close();
    }
  });
});
