import { describe, expect, it } from "vitest";
import { readWorkerEnv } from "./env.ts";
import { plantedBugs } from "./planted-bugs.ts";

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

describe("the worker's planted bugs take two keys", () => {
  it("refuses TEST_PLANTED_BUG without NODE_ENV=test, naming the variable; a value that is no bug is refused too", () => {
    for (const nodeEnv of [undefined, "production", "development"]) {
      expect(() => readWorkerEnv({ TEST_PLANTED_BUG: "skip-journal-line", NODE_ENV: nodeEnv })).toThrow(
        /TEST_PLANTED_BUG[\s\S]*breaks the ledger on purpose[\s\S]*NODE_ENV=test/,
      );
    }
    expect(() => readWorkerEnv({ TEST_PLANTED_BUG: "skip-everything", NODE_ENV: "test" })).toThrow(
      /TEST_PLANTED_BUG/,
    );
  });

  it("honours each of the six under NODE_ENV=test, and none is switched on by default", () => {
    for (const bug of plantedBugs)
      expect(readWorkerEnv({ TEST_PLANTED_BUG: bug, NODE_ENV: "test" }).TEST_PLANTED_BUG).toBe(bug);
    expect(plantedBugs).toHaveLength(6);
    expect(readWorkerEnv({ NODE_ENV: "test" }).TEST_PLANTED_BUG).toBeUndefined();
  });
});

describe("the worker's metrics port", () => {
  it("binds every interface unless METRICS_HOST names one; an empty value is refused, named", () => {
    expect(readWorkerEnv({}).METRICS_HOST).toBeUndefined();
    expect(readWorkerEnv({ METRICS_HOST: "127.0.0.1" }).METRICS_HOST).toBe("127.0.0.1");
    expect(() => readWorkerEnv({ METRICS_HOST: "" })).toThrow(/METRICS_HOST/);
  });
});

describe("the retention periods of the operator's records", () => {
  it("default to 400 days for the audit trail and revoked tokens, 90 for resolved refused closes; 0 keeps them, a negative is refused", () => {
    const env = readWorkerEnv({});
    expect([
      env.OPERATOR_ACTIONS_RETENTION_DAYS,
      env.REVOKED_TOKENS_RETENTION_DAYS,
      env.REFUSED_CLOSES_RETENTION_DAYS,
    ]).toEqual([400, 400, 90]);
    expect(readWorkerEnv({ OPERATOR_ACTIONS_RETENTION_DAYS: "0" }).OPERATOR_ACTIONS_RETENTION_DAYS).toBe(0);
    expect(() => readWorkerEnv({ REVOKED_TOKENS_RETENTION_DAYS: "-1" })).toThrow(
      /REVOKED_TOKENS_RETENTION_DAYS/,
    );
  });
});

describe("the database role check (issue 39)", () => {
  it("reads the server's role every 250 ms by default; at most every second, at least every 20 ms, named when refused", () => {
    expect(readWorkerEnv({}).DB_ROLE_CHECK_MS).toBe(250);
    expect(readWorkerEnv({ DB_ROLE_CHECK_MS: "100" }).DB_ROLE_CHECK_MS).toBe(100);
    for (const refused of ["1001", "10", "0.5x"])
      expect(() => readWorkerEnv({ DB_ROLE_CHECK_MS: refused })).toThrow(/DB_ROLE_CHECK_MS/);
  });
});
