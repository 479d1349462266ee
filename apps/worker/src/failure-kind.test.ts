import { DatabaseFencedError } from "@wallet/ledger/fence";
import { classedErrors } from "@wallet/ledger/mysql-errors";
import { DatabaseSessionError } from "@wallet/ledger/session-gate";
import { describe, expect, it } from "vitest";
import { isInfrastructureError } from "./failure-kind.ts";

// As drizzle throws them: the server's error is the cause of a DrizzleQueryError.
const failed = (errno: number) =>
  Object.assign(new Error("Failed query: …"), { cause: Object.assign(new Error("server"), { errno }) });

describe("isInfrastructureError, for MySQL 8.4, MariaDB and TiDB (errors classed in @wallet/ledger/mysql-errors)", () => {
  it("is the infrastructure: conflicts (TiDB's write conflict 9007 included) and an unavailable server", () => {
    for (const errno of [
      1213, 1205, 3101, 8002, 8005, 8022, 8027, 8028, 9007, 1040, 1053, 1317, 1927, 4031, 3781, 3782, 3783,
      9001, 9002, 9003, 9004, 9005,
    ])
      expect(isInfrastructureError(failed(errno))).toBe(true);
  });

  it("is the work itself when a server refuses its size (issue 42): retried as is, it would be refused for good", () => {
    // Group Replication's size limit (3100), TiDB's transaction and entry limits: the attempt counts
    // toward the side effect's death, so a person sees it dead-lettered instead of an endless retry.
    for (const errno of [3100, 8004, 8025, 9500]) expect(isInfrastructureError(failed(errno))).toBe(false);
    for (const error of classedErrors)
      expect({ errno: error.errno, infrastructure: isInfrastructureError(failed(error.errno)) }).toEqual({
        errno: error.errno,
        infrastructure: error.class !== "too_large",
      });
  });

  it("is the infrastructure: a read-only or fenced server, a Galera node outside the primary component", () => {
    // A side effect meeting a demoted primary is retried as is, never counted toward its death.
    for (const errno of [1290, 1836, 1792, 1047]) expect(isInfrastructureError(failed(errno))).toBe(true);
    // And a statement its own Database refused unsent, the server found read-only (issue 39).
    expect(
      isInfrastructureError(
        Object.assign(new Error("Failed query: …"), { cause: new DatabaseFencedError() }),
      ),
    ).toBe(true);
    // Or on a connection whose session could not be set as the ledger needs (issue 42): the server's
    // setting is fixed and the side effect applies, so none is counted toward its death meanwhile.
    expect(
      isInfrastructureError(
        Object.assign(new Error("Failed query: …"), {
          cause: new DatabaseSessionError("binlog_format is STATEMENT with binary logging on"),
        }),
      ),
    ).toBe(true);
  });

  it("is the work itself: a duplicate key, a denied command, a CHECK, a syntax error, an unknown collation", () => {
    for (const errno of [1062, 1142, 3819, 4025, 1064, 1273])
      expect(isInfrastructureError(failed(errno))).toBe(false);
  });
});
