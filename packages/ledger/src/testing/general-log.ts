import { createConnection } from "mysql2";
import mysql, { type Connection, type RowDataPacket } from "mysql2/promise";
import { statementShape } from "../portability/check.ts";
import { administratorUserPrefix, migratorUserPrefix, runtimeUserPrefix } from "./test-users.ts";

/**
 * TEST SUPPORT: what the integration tests sent, read from the server's own general log (to the
 * mysql.general_log table, so any OS user running the tests can read it over SQL). The test setup
 * starts it and stops it (scripts/vitest-services.ts); the portability gate reads it afterwards.
 * Only the statements of the test databases' migrators and runtime users count (and of a test's DBA
 * running `pnpm db:grants`' output): that is the product; the tests' own setup and breakage run as root.
 */
async function onServer<T>(serverUrl: string, work: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

/** Empties the log and starts it; returns how to put the server's logging back as it was. */
export async function startStatementCapture(serverUrl: string): Promise<() => Promise<void>> {
  return onServer(serverUrl, async (connection) => {
    const [rows] = await connection.query<RowDataPacket[]>(
      "SELECT @@global.log_output AS output, @@global.general_log AS logging",
    );
    const before = rows[0] ?? { output: "FILE", logging: 0 };
    await connection.query("SET GLOBAL general_log = 0");
    await connection.query("SET GLOBAL log_output = 'TABLE'");
    await connection.query("TRUNCATE TABLE mysql.general_log");
    await connection.query("SET GLOBAL general_log = 1");
    return () =>
      onServer(serverUrl, async (again) => {
        await again.query("SET GLOBAL general_log = ?", [Number(before.logging)]);
        await again.query("SET GLOBAL log_output = ?", [String(before.output)]);
      });
  });
}

export interface SentStatements {
  /**
   * Each statement shape (`statementShape`) with how often it was sent, one user that sent it, and
   * the bytes of its largest statement as logged (a prepared statement's Execute line carries its
   * bound values), for the size budgets (`portability/size-budgets.ts`).
   */
  shapes: Map<string, { count: number; user: string; maxBytes: number }>;
  statements: number;
  users: Set<string>;
  /**
   * Shapes the log cut short. `mysql.general_log` is utf8mb3: an entry holding a four-byte
   * character (an emoji id) is written with its bytes escaped (`\xF0\x9F…`) and ends early.
   */
  cut: Set<string>;
  /** Statements a test sent as one of these users on purpose (`testsOwn`): not the product's. */
  testsOwn: number;
}

/**
 * Opens a statement a test sends as the runtime or migrator user itself (one the grants must
 * refuse, a session counter read on the product's connection): the gate leaves it out.
 */
export const testsOwn = "/* a test's own statement */ ";

/** Reads the captured statements of the test users, one shape each, streaming (the log can hold GBs). */
export async function sentStatements(serverUrl: string): Promise<SentStatements> {
  const sent: SentStatements = {
    shapes: new Map(),
    statements: 0,
    users: new Set(),
    cut: new Set(),
    testsOwn: 0,
  };
  // The callback API's connection: its query streams rows instead of holding them all.
  const connection = createConnection({ uri: serverUrl });
  try {
    const query = connection.query(
      "SELECT user_host, argument FROM mysql.general_log WHERE command_type IN ('Query', 'Prepare', 'Execute')" +
        " AND (user_host LIKE ? OR user_host LIKE ? OR user_host LIKE ?)",
      [runtimeUserPrefix, migratorUserPrefix, administratorUserPrefix].map(
        (prefix) => `${prefix.replace("_", "\\_")}%`,
      ),
    );
    await new Promise<void>((resolve, reject) => {
      query
        .stream()
        .on("data", (row: { user_host: Buffer | string; argument: Buffer | string }) => {
          const user = String(row.user_host).split("[")[0] ?? "";
          const text = String(row.argument);
          if (text.startsWith(testsOwn)) {
            sent.testsOwn += 1;
            return;
          }
          const bytes = Buffer.isBuffer(row.argument) ? row.argument.length : Buffer.byteLength(row.argument);
          const shape = statementShape(text);
          if (/\\x[0-9A-F]{2}/.test(text)) sent.cut.add(shape);
          const seen = sent.shapes.get(shape);
          if (seen) {
            seen.count += 1;
            seen.maxBytes = Math.max(seen.maxBytes, bytes);
          } else sent.shapes.set(shape, { count: 1, user, maxBytes: bytes });
          sent.statements += 1;
          sent.users.add(user.slice(0, 3));
        })
        .on("end", () => resolve())
        .on("error", reject);
    });
    return sent;
  } finally {
    connection.end();
  }
}

/** Frees the log's space once read. */
export async function clearStatementCapture(serverUrl: string): Promise<void> {
  await onServer(serverUrl, (connection) =>
    connection.query("TRUNCATE TABLE mysql.general_log").then(() => {}),
  );
}
