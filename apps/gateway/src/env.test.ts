import { describe, expect, it } from "vitest";
import { readGatewayEnv } from "./env.ts";

describe("gateway env", () => {
  it("defaults to the local dev setup of ARCHITECTURE.md", () => {
    const env = readGatewayEnv({});
    expect(env).toMatchObject({ GATEWAY_PORT: 3000, LEDGER_PARTITIONS: 32, CALLBACK_DEADLINE_MS: 2500 });
    expect(env.TENANTS).toEqual([
      { operatorId: 1, publicKey: "dev-public-key", secretKey: "dev-secret-key" },
    ]);
  });

  it("reads numbers and TENANTS from strings", () => {
    const env = readGatewayEnv({
      GATEWAY_PORT: "4000",
      TENANTS: '[{"operatorId":7,"publicKey":"pk-7","secretKey":"secret-seven"}]',
    });
    expect(env.GATEWAY_PORT).toBe(4000);
    expect(env.TENANTS[0]?.operatorId).toBe(7);
    expect(() => readGatewayEnv({ LEDGER_PARTITIONS: "0" })).toThrow();
  });
});
