import { describe, expect, it } from "vitest";
import { listen } from "./listen.ts";
import { unwiredOperatorApi } from "./testing/unwired-api.ts";

const healthz = async (host: string, port: number) => {
  try {
    return (await fetch(`http://${host}:${port}/healthz`)).status;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code;
  }
};

describe("the API's listener (OPERATOR_API_HOST)", () => {
  it("binds only the address it is given: another loopback address finds no one", async () => {
    const { server, address } = await listen(unwiredOperatorApi(), 0, "127.0.0.2");
    try {
      expect(address.address).toBe("127.0.0.2");
      expect(await healthz("127.0.0.2", address.port)).toBe(200);
      expect(await healthz("127.0.0.1", address.port)).toBe("ECONNREFUSED");
    } finally {
      server.close();
    }
  });

  it("binds every interface when no address is given (the default)", async () => {
    const { server, address } = await listen(unwiredOperatorApi(), 0);
    try {
      expect(["::", "0.0.0.0"]).toContain(address.address);
      expect(await healthz("127.0.0.1", address.port)).toBe(200);
      expect(await healthz("127.0.0.2", address.port)).toBe(200);
    } finally {
      server.close();
    }
  });
});
