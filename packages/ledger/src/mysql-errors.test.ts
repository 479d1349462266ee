import { describe, expect, it } from "vitest";
import { DatabaseFencedError } from "./fence.ts";
import { isDatabaseFenced, isDatabaseRefused, isTransientLockError, mysqlErrno } from "./mysql-errors.ts";
import { DatabaseSessionError } from "./session-gate.ts";

// As drizzle throws them: the server's error is the cause of a DrizzleQueryError.
const failed = (errno: number) =>
  Object.assign(new Error("Failed query: …"), { cause: Object.assign(new Error("server"), { errno }) });

describe("the server errors of MySQL 8.4, MariaDB and TiDB, classed in one place", () => {
  it("re-runs a transaction that lost to another, on every server: deadlock, lock wait, TiDB's write conflicts", () => {
    for (const errno of [1213, 1205, 3101, 8002, 8005, 8022, 8028, 9007]) {
      expect(mysqlErrno(failed(errno))).toBe(errno);
      expect(isTransientLockError(failed(errno))).toBe(true);
    }
  });

  it("does not re-run at once on an unavailable server (the worker's failure classes make it a 503)", () => {
    for (const errno of [
      1040, 1053, 1317, 1927, 3100, 3781, 3782, 3783, 9001, 9002, 9003, 9005, 1290, 1836, 1792, 1047,
    ])
      expect(isTransientLockError(failed(errno))).toBe(false);
  });

  it("never retries what running again cannot fix: a duplicate key, a denied command, a CHECK, a syntax error", () => {
    for (const errno of [1062, 1142, 3819, 4025, 1064, 1273]) {
      expect(isTransientLockError(failed(errno))).toBe(false);
    }
  });

  it("tells a statement refused unsent by a fenced Database, through drizzle's wrapper, from a server's error", () => {
    const wrapped = Object.assign(new Error("Failed query: …"), { cause: new DatabaseFencedError() });
    expect([isDatabaseFenced(wrapped), isDatabaseFenced(new DatabaseFencedError())]).toEqual([true, true]);
    expect([isDatabaseFenced(failed(1290)), mysqlErrno(wrapped), isTransientLockError(wrapped)]).toEqual([
      false,
      undefined,
      false,
    ]);
  });

  it("tells a statement refused unsent, fenced or on a connection refused its session, from a server's error", () => {
    const wrapped = Object.assign(new Error("Failed query: …"), { cause: new DatabaseSessionError("why") });
    expect([isDatabaseRefused(wrapped), isDatabaseRefused(new DatabaseFencedError())]).toEqual([true, true]);
    expect([
      isDatabaseRefused(failed(1290)),
      isDatabaseFenced(wrapped),
      isTransientLockError(wrapped),
    ]).toEqual([false, false, false]);
  });
});
