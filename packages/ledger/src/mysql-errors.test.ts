import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DatabaseFencedError } from "./fence.ts";
import {
  classedErrors,
  isDatabaseFenced,
  isDatabaseRefused,
  isTransactionTooLarge,
  isTransientLockError,
  mysqlErrno,
  readOnlyErrnos,
  retryErrorLabel,
  retryErrorLabels,
  serverUnavailableErrnos,
} from "./mysql-errors.ts";
import { DatabaseSessionError } from "./session-gate.ts";

// As drizzle throws them: the server's error is the cause of a DrizzleQueryError.
const failed = (errno: number) =>
  Object.assign(new Error("Failed query: …"), { cause: Object.assign(new Error("server"), { errno }) });

/** The rows of the "Transient errors" table of docs/databases.md: code → class and label ("—": none). */
function documentedErrors(): Array<{ errno: number; class: string; label: string }> {
  const doc = readFileSync(new URL("../../../docs/databases.md", import.meta.url), "utf8");
  const from = doc.indexOf("**Transient errors**");
  const table = doc.slice(doc.indexOf("| error | server |", from));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
  return rows.map((row) => {
    const cells = row.split("|").map((cell) => cell.trim());
    return { errno: Number(cells[1]), class: cells[4] ?? "", label: (cells[5] ?? "").replaceAll("`", "") };
  });
}

/** What the ledger does with each class, as its callers see it. */
function behaviourOf(errno: number) {
  const error = failed(errno);
  return {
    rerun: isTransientLockError(error),
    unavailable: serverUnavailableErrnos.has(errno),
    readOnly: readOnlyErrnos.has(errno),
    tooLarge: isTransactionTooLarge(error),
  };
}
const behaviours: Record<string, ReturnType<typeof behaviourOf>> = {
  conflict: { rerun: true, unavailable: false, readOnly: false, tooLarge: false },
  unavailable: { rerun: false, unavailable: true, readOnly: false, tooLarge: false },
  read_only: { rerun: false, unavailable: true, readOnly: true, tooLarge: false },
  too_large: { rerun: false, unavailable: false, readOnly: false, tooLarge: true },
};

describe("the server errors of MySQL 8.4, MariaDB and TiDB, classed in one place", () => {
  const documented = documentedErrors();

  it("docs/databases.md's table names every classed code, with the code's class and retry label, and no other", () => {
    expect(documented.length).toBeGreaterThan(30);
    const code = classedErrors.map((error) => ({
      errno: error.errno,
      class: error.class,
      label: error.label ?? "—",
    }));
    const byErrno = (a: { errno: number }, b: { errno: number }) => a.errno - b.errno;
    expect([...documented].sort(byErrno)).toEqual(code.sort(byErrno));
  });

  it.each(documented)("$errno is handled as a $class error, its reruns counted as $label", (row) => {
    expect(mysqlErrno(failed(row.errno))).toBe(row.errno);
    expect(behaviourOf(row.errno)).toEqual(behaviours[row.class]);
    expect(retryErrorLabel(row.errno)).toBe(row.class === "conflict" ? row.label : "other");
  });

  it("every conflict has a label the metric starts at 0; a size error is never rerun nor taken for an outage", () => {
    for (const error of classedErrors.filter((each) => each.class === "conflict"))
      expect(retryErrorLabels).toContain(error.label);
    // Issue 42: TiDB's schema changes and write conflicts are labelled as docs/metrics.md says.
    expect([8028, 8027, 8005, 3101, 1213, 1205, 1062, 1305, 9999].map(retryErrorLabel)).toEqual([
      "schema_changed",
      "schema_changed",
      "write_conflict",
      "write_conflict",
      "deadlock",
      "lock_wait_timeout",
      "duplicate_key",
      "other",
      "other",
    ]);
    for (const errno of [3100, 8004, 8025]) expect(behaviourOf(errno)).toEqual(behaviours.too_large);
  });

  it("never retries what running again cannot fix: a duplicate key, a denied command, a CHECK, a syntax error", () => {
    for (const errno of [1062, 1142, 3819, 4025, 1064, 1273]) {
      expect(behaviourOf(errno)).toEqual({
        rerun: false,
        unavailable: false,
        readOnly: false,
        tooLarge: false,
      });
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
