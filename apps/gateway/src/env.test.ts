import { describe, expect, it } from "vitest";
import { readGatewayEnv } from "./env.ts";

describe("gateway env", () => {
  it("defaults to the local dev setup of ARCHITECTURE.md (but 2 partitions: docs/performance.md)", () => {
    const env = readGatewayEnv({});
    expect(env).toMatchObject({
      GATEWAY_PORT: 3000,
      LEDGER_PARTITIONS: 2,
      CALLBACK_DEADLINE_MS: 2500,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 15_000,
    });
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

  it("binds the callback and metrics ports to every interface unless GATEWAY_HOST / METRICS_HOST name one", () => {
    const unset = readGatewayEnv({});
    expect([unset.GATEWAY_HOST, unset.METRICS_HOST]).toEqual([undefined, undefined]);
    const env = readGatewayEnv({ GATEWAY_HOST: "127.0.0.1", METRICS_HOST: "10.0.0.7" });
    expect([env.GATEWAY_HOST, env.METRICS_HOST]).toEqual(["127.0.0.1", "10.0.0.7"]);
    // An empty value is a mistake in a manifest, not "every interface": it is refused, named.
    expect(() => readGatewayEnv({ GATEWAY_HOST: "" })).toThrow(/GATEWAY_HOST/);
    expect(() => readGatewayEnv({ METRICS_HOST: "" })).toThrow(/METRICS_HOST/);
  });

  it("reads the server timeouts and refuses headers allowed longer than the whole request", () => {
    const env = readGatewayEnv({ HEADERS_TIMEOUT_MS: "2000", REQUEST_TIMEOUT_MS: "3000" });
    expect([env.HEADERS_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS]).toEqual([2_000, 3_000]);
    expect(
      readGatewayEnv({ HEADERS_TIMEOUT_MS: "3000", REQUEST_TIMEOUT_MS: "3000" }).HEADERS_TIMEOUT_MS,
    ).toBe(3_000);
    expect(() => readGatewayEnv({ HEADERS_TIMEOUT_MS: "20000" })).toThrow(
      /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/,
    );
    expect(() => readGatewayEnv({ HEADERS_TIMEOUT_MS: "4000", REQUEST_TIMEOUT_MS: "3000" })).toThrow(
      /must not exceed/,
    );
    // 0 would switch node's timeout off: the slow-client protection is not optional.
    expect(() => readGatewayEnv({ HEADERS_TIMEOUT_MS: "0" })).toThrow();
    expect(() => readGatewayEnv({ REQUEST_TIMEOUT_MS: "soon" })).toThrow();
  });
});
