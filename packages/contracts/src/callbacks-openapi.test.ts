import { describe, expect, it } from "vitest";
import { callbacksOpenApi } from "./callbacks-openapi.ts";

type Operation = {
  requestBody: { content: { "application/json": { schema: Record<string, unknown> } } };
  responses: Record<string, { content: { "application/json": { schema: Record<string, unknown> } } }>;
};
const operationOf = (path: string) => (callbacksOpenApi.paths[path] as { post: Operation }).post;

describe("the callbacks' OpenAPI document", () => {
  it("lists the four callbacks, each with what every callback answers and what its ledger adds", () => {
    const statuses = Object.fromEntries(
      Object.keys(callbacksOpenApi.paths).map((path) => [path, Object.keys(operationOf(path).responses)]),
    );
    const every = ["200", "400", "401", "404", "408", "413", "415", "431", "503"];
    expect(statuses).toEqual({
      "/auth": every,
      "/withdraw": [...every, "402", "409"].sort(),
      "/deposit": [...every, "409"].sort(),
      "/balance": every,
    });
  });

  it("says how a body is signed, and that a refusal's code is its status", () => {
    expect(callbacksOpenApi.security).toEqual([{ publicKey: [], signature: [] }]);
    expect(callbacksOpenApi.components.securitySchemes.signature).toMatchObject({
      in: "header",
      name: "X-Signature",
      description: expect.stringContaining("base64(hmac_sha256(secret, raw body))"),
    });
    const refusal = operationOf("/withdraw").responses["402"]?.content["application/json"].schema;
    expect(refusal).toMatchObject({
      properties: { code: { const: 402 } },
      required: ["code", "message"],
      additionalProperties: false,
    });
  });

  it("documents money as integer millis and a BET's body from the schema the gateway reads it with", () => {
    const withdraw = operationOf("/withdraw").requestBody.content["application/json"].schema;
    const [bet] = withdraw.oneOf as Array<{ properties: Record<string, object>; required: string[] }>;
    expect(bet?.properties.amount).toEqual({
      type: "integer",
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "integer millis",
    });
    expect(bet?.properties.provider_tx_id).toEqual({
      type: "string",
      minLength: 1,
      maxLength: 128,
      pattern: "\\S",
    });
    expect(bet?.required).toEqual(
      expect.arrayContaining(["provider_tx_id", "user_id", "session_token", "amount"]),
    );
  });
});
