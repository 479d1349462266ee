import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "./listen.ts";
import { readsBody } from "./route.ts";
import { operatorRoutes } from "./route-list.ts";
import { unwiredOperatorApi } from "./testing/unwired-api.ts";

/**
 * What a request's body may be, refused before any route's work (the app here has nothing behind it:
 * a request that got as far as the ledger or the platform would be a 503). Found by the generated
 * client (`system-tests/src/e2e/operator-api-generated-client.int.test.ts`): a JSON array sent to a
 * write that reads nothing but `operatorId` from its body minted a token (201).
 */
let base = "";
let close = () => {};
beforeAll(async () => {
  const { server, address } = await listen(unwiredOperatorApi(), 0, "127.0.0.1");
  base = `http://127.0.0.1:${address.port}`;
  close = () => server.close();
});
afterAll(() => close());

const send = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: "Bearer unwired-operator-token",
      "content-type": "application/json",
      ...headers,
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as { code: number; message: string } };
};
const concrete = (path: string) => path.replace(/:\w+/g, "some-id");

describe("a write's JSON body", () => {
  it("is an object on every route: an array is a 400, whatever else the route reads", async () => {
    const writes = operatorRoutes.filter(readsBody);
    expect(writes.length).toBe(7);
    for (const route of writes) {
      const answer = await send("POST", concrete(route.path), "[]");
      expect({ route: route.path, status: answer.status, code: answer.json.code }).toEqual({
        route: route.path,
        status: 400,
        code: 400,
      });
    }
    // The routes that read only operatorId from their body say so in these words.
    expect(await send("POST", "/v1/players/some-id/tokens", "[]")).toEqual({
      status: 400,
      json: { code: 400, message: "body: must be a JSON object" },
    });
    expect((await send("POST", "/v1/games/cache/invalidate", '[{"operatorId":1}]')).status).toBe(400);
  });

  it("in an encoding or charset the server cannot read is a 415 saying what it takes", async () => {
    const expected = {
      status: 415,
      json: {
        code: 415,
        message:
          "the body's Content-Encoding or charset cannot be read: send it as identity, gzip, deflate or br, in UTF-8",
      },
    };
    expect(
      await send("POST", "/v1/players/some-id/tokens", "{}", { "content-encoding": "compress" }),
    ).toEqual(expected);
    expect(
      await send("POST", "/v1/players/some-id/tokens", "{}", {
        "content-type": "application/json; charset=latin1",
      }),
    ).toEqual(expected);
  });
});

/** A GET with a body (fetch sends none): the request as a client may still send it. */
const getWithBody = (path: string, body: string) =>
  new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    // A connection of its own: the server closes one whose request body it did not read.
    const sent = request(`${base}${path}`, {
      agent: false,
      method: "GET",
      headers: { authorization: "Bearer unwired-operator-token", "content-type": "application/json" },
    });
    sent.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }));
    });
    sent.on("error", reject);
    sent.end(body);
  });

describe("a read's body", () => {
  it("is never read: not JSON, or past 64 KiB, it changes nothing in the answer", async () => {
    const refusal = {
      status: 400,
      json: { code: 400, message: "operatorId: must be a positive integer" },
    };
    expect(await getWithBody("/v1/players/some-id?operatorId=abc", "{")).toEqual(refusal);
    expect(await getWithBody("/v1/players/some-id?operatorId=abc", "x".repeat(100_000))).toEqual(refusal);
    expect(await getWithBody("/v1/players/some-id?operatorId=abc", '{"operatorId":1}')).toEqual(refusal);
  });
});
