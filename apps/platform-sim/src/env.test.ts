import { describe, expect, it } from "vitest";
import { readSimEnv } from "./env.ts";

describe("the simulator's env", () => {
  it("defaults to the contract's Limits: 5 s doubling to 2 min, 300 ms jitter, 5 sends in all", () => {
    const env = readSimEnv({});
    expect([
      env.SIM_RETRY_BASE_MS,
      env.SIM_RETRY_MAX_MS,
      env.SIM_RETRY_JITTER_MS,
      env.SIM_RETRY_ATTEMPTS,
    ]).toEqual([5_000, 120_000, 300, 5]);
  });

  it("binds every interface unless PLATFORM_SIM_HOST names one; an empty value is refused, named", () => {
    expect(readSimEnv({}).PLATFORM_SIM_HOST).toBeUndefined();
    expect(readSimEnv({ PLATFORM_SIM_HOST: "127.0.0.1" }).PLATFORM_SIM_HOST).toBe("127.0.0.1");
    expect(() => readSimEnv({ PLATFORM_SIM_HOST: "" })).toThrow(/PLATFORM_SIM_HOST/);
  });
});
