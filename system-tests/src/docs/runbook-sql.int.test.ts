import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { describe, expect, inject, it } from "vitest";
import { harnessPath } from "../harness/env.ts";
import { repoRoot } from "./doc-blocks.ts";

// The statements the runbook tells an SRE to type into `mysql`, read from its text: each must run on
// the wallet's schema (a column renamed since would fail here) or on the server, as written. Those
// that change the server (SET GLOBAL, START/STOP SLAVE) and MySQL 8.4's own are named, not run.
const ledger = useTestLedger();
const run = promisify(execFile);
const runbook = readFileSync(`${repoRoot}docs/runbook.md`, "utf8");
const statements = [...runbook.matchAll(/`((?:SELECT|SHOW|SET\s+GLOBAL|START|STOP)\s[^`]*)`/g)].map((found) =>
  (found[1] ?? "").replace(/\s+/g, " "),
);
const changesServer = /^(SET GLOBAL|START|STOP) /;
const mysqlOnly = new Set(["SHOW BINARY LOG STATUS"]);

describe("runbook: the SQL it gives", () => {
  it("finds the statements, the ones it does not run being only those that change a server or are MySQL 8.4's", () => {
    expect(statements.filter((statement) => statement.includes("FROM outbox")).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(statements.filter((statement) => changesServer.test(statement)).sort()).toEqual(
      [
        "SET GLOBAL binlog_format = 'ROW'",
        "SET GLOBAL binlog_format = 'STATEMENT'",
        "SET GLOBAL read_only = OFF",
        "SET GLOBAL read_only = ON",
        "SET GLOBAL tidb_enable_check_constraint = ON",
        "SET GLOBAL tidb_txn_mode = 'pessimistic'",
        "SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'",
        "START REPLICA",
        "START REPLICA",
        "START SLAVE",
        "START SLAVE",
        "STOP SLAVE",
        "STOP SLAVE",
      ].sort(),
    );
  });

  it("each other statement runs on MariaDB against the wallet's schema, as typed", async () => {
    const server = new URL(inject("mysqlServerUrl"));
    const database = new URL(ledger.url).pathname.slice(1);
    const failed: string[] = [];
    for (const statement of statements) {
      if (changesServer.test(statement) || mysqlOnly.has(statement)) continue;
      const sql = statement.replace(/\\G$/, "");
      try {
        await run(
          "mysql",
          [
            "-h",
            server.hostname,
            "-P",
            server.port || "3306",
            "-u",
            decodeURIComponent(server.username),
            database,
            "-e",
            sql,
          ],
          { env: { PATH: harnessPath, MYSQL_PWD: decodeURIComponent(server.password) } },
        );
      } catch (error) {
        failed.push(`${statement}: ${(error as { stderr?: string }).stderr ?? String(error)}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
