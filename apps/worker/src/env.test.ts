import { describe, expect, it } from "vitest";
import { readWorkerEnv } from "./env.ts";

describe("the worker's test crash points take two keys", () => {
  it("refuses TEST_CRASH_POINT without NODE_ENV=test, naming the variable", () => {
    for (const nodeEnv of [undefined, "production", "development"]) {
      expect(() => readWorkerEnv({ TEST_CRASH_POINT: "relay-before-publish", NODE_ENV: nodeEnv })).toThrow(
        /TEST_CRASH_POINT[\s\S]*NODE_ENV=test/,
      );
    }
  });

  it("honours it under NODE_ENV=test, and nothing is switched on by default", () => {
    expect(readWorkerEnv({ TEST_CRASH_POINT: "consumer-mid-batch", NODE_ENV: "test" }).TEST_CRASH_POINT).toBe(
      "consumer-mid-batch",
    );
    expect(readWorkerEnv({ NODE_ENV: "production" }).TEST_CRASH_POINT).toBeUndefined();
  });

  it("refuses a point that does not exist", () => {
    expect(() => readWorkerEnv({ TEST_CRASH_POINT: "anywhere", NODE_ENV: "test" })).toThrow(
      /TEST_CRASH_POINT/,
    );
  });

  it("refuses TEST_HOLD_BATCH_ROUND without NODE_ENV=test, naming the variable", () => {
    expect(() => readWorkerEnv({ TEST_HOLD_BATCH_ROUND: "race-", NODE_ENV: "production" })).toThrow(
      /TEST_HOLD_BATCH_ROUND[\s\S]*NODE_ENV=test/,
    );
    expect(readWorkerEnv({ TEST_HOLD_BATCH_ROUND: "race-", NODE_ENV: "test" }).TEST_HOLD_BATCH_ROUND).toBe(
      "race-",
    );
  });
});
