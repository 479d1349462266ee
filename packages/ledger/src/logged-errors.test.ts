import { createLogger } from "@wallet/telemetry/logger";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";

const userToken = "u.dXNlci0x.c2VjcmV0LXRva2VuLXZhbHVl";
const sessionToken = "session-3f2a9c1e-secret";
const statement = "select `token` from `user_tokens` where (`token` = ? and `tenant_id` = ?)";

/** What mysql2 rejects a statement with: the statement with its values inlined, in `sql`. */
function mysqlError(message: string): Error {
  return Object.assign(new Error(message), {
    code: "ER_LOCK_WAIT_TIMEOUT",
    errno: 1205,
    sql: statement.replace("?", `'${userToken}'`).replace("?", "1"),
  });
}

/** Logs `err` the way the apps do and returns the JSON line. */
function logged(err: unknown): string {
  const lines: string[] = [];
  const logger = createLogger("test", "info", { write: (line: string) => lines.push(line) });
  logger.error({ err, op: "auth" }, "ledger verb failed");
  expect(lines).toHaveLength(1);
  return lines[0] ?? "";
}

describe("a failed statement's error, logged", () => {
  it("keeps the statement and the cause but none of the values bound to it (drizzle's real error)", () => {
    // drizzle puts the values in its message, so in the stack too: `Failed query: …\nparams: a,b`.
    const error = new DrizzleQueryError(
      statement,
      [userToken, 1],
      mysqlError("Lock wait timeout exceeded; try restarting transaction"),
    );
    expect(error.message).toContain(userToken);

    const line = logged(error);
    expect(line).not.toContain(userToken);
    const { err } = JSON.parse(line) as { err: Record<string, unknown> };
    expect(err.type).toBe("DrizzleQueryError");
    expect(err.query).toBe(statement);
    expect(err.params).toBeUndefined();
    expect(err.message).toBe(
      `Failed query: ${statement}\nparams: [redacted]: Lock wait timeout exceeded; try restarting transaction`,
    );
    expect(String(err.stack)).toContain("params: [redacted]");
  });

  it("drops mysql2's inlined statement when its error is logged unwrapped", () => {
    const line = logged(mysqlError("Connection lost: The server closed the connection."));
    expect(line).not.toContain(userToken);
    const { err } = JSON.parse(line) as { err: Record<string, unknown> };
    expect([err.code, err.errno, err.sql]).toEqual(["ER_LOCK_WAIT_TIMEOUT", 1205, undefined]);
  });

  it("finds the values anywhere down the cause chain, and in aggregated errors", () => {
    const inner = new DrizzleQueryError(statement, [sessionToken, 2], mysqlError("Deadlock found"));
    const wrapped = new Error("transaction failed", { cause: inner });
    const aggregate = new AggregateError([inner], "every attempt failed");
    for (const error of [wrapped, aggregate]) expect(logged(error)).not.toContain(sessionToken);
    expect(logged(wrapped)).toContain("params: [redacted]");
  });

  it("leaves other errors and non-errors as pino logs them", () => {
    const { err } = JSON.parse(logged(new Error("plain failure"))) as { err: Record<string, unknown> };
    expect([err.type, err.message]).toEqual(["Error", "plain failure"]);
    expect(JSON.parse(logged("just a string")).err).toBe("just a string");
  });
});
