import { describe, expect, it } from "vitest";
import { portabilityProblems } from "./portability/check.ts";
import { flavorOf, type ServerVariables, showVariables } from "./server-flavor.ts";
import {
  checkConstraintsProblem,
  ledgerSqlMode,
  sessionProblems,
  sessionStatements,
  sessionVariables,
} from "./session-needs.ts";

// What each server answers the read-back (`SHOW SESSION VARIABLES WHERE Variable_name IN (…)`) once the
// session is set. MariaDB's: run here (10.11). MySQL 8.4's and TiDB's: as their manuals name and show
// these variables (docs/databases.md gives the pages).
const mariadb: ServerVariables = {
  binlog_format: "MIXED",
  innodb_lock_wait_timeout: "3",
  log_bin: "OFF",
  read_only: "OFF",
  sql_mode: ledgerSqlMode,
  time_zone: "+00:00",
  tx_isolation: "READ-COMMITTED",
  version: "10.11.19-MariaDB-0+deb12u1",
  version_comment: "Debian 12",
};
const mysql: ServerVariables = {
  binlog_format: "ROW",
  innodb_lock_wait_timeout: "3",
  log_bin: "ON",
  read_only: "OFF",
  sql_mode: ledgerSqlMode,
  time_zone: "+00:00",
  transaction_isolation: "READ-COMMITTED",
  version: "8.4.3",
  version_comment: "MySQL Community Server - GPL",
};
const tidb: ServerVariables = {
  innodb_lock_wait_timeout: "3",
  log_bin: "OFF",
  read_only: "OFF",
  sql_mode: ledgerSqlMode,
  time_zone: "+00:00",
  transaction_isolation: "READ-COMMITTED",
  tx_isolation: "READ-COMMITTED",
  version: "8.0.11-TiDB-v7.5.1",
  version_comment: "TiDB Server (Apache License 2.0) Community Edition, MySQL 8.0 compatible",
  tidb_txn_mode: "pessimistic",
  tidb_enable_check_constraint: "ON",
};

const problems = (variables: ServerVariables) => sessionProblems(variables, 3);

describe("the session every connection must have before it serves (sessionProblems)", () => {
  it("serves a session set as the ledger needs on each of the three servers", () => {
    expect([problems(mariadb), problems(mysql), problems(tidb)]).toEqual([[], [], []]);
    // The other spellings a server may read back for what was set.
    expect(problems({ ...mysql, time_zone: "UTC", binlog_format: "MIXED" })).toEqual([]);
    // MariaDB 11.1+ shows both names.
    expect(problems({ ...mariadb, transaction_isolation: "READ-COMMITTED" })).toEqual([]);
  });

  it("refuses a session left at another isolation, time zone or lock wait, naming each", () => {
    expect(problems({ ...mariadb, tx_isolation: "REPEATABLE-READ" })).toEqual([
      "the transaction isolation is REPEATABLE-READ, not READ-COMMITTED",
    ]);
    expect(problems({ ...tidb, tx_isolation: "REPEATABLE-READ" })).toEqual([
      "the transaction isolation is READ-COMMITTED/REPEATABLE-READ, not READ-COMMITTED",
    ]);
    const { tx_isolation: _, ...noIsolation } = mariadb;
    expect(problems(noIsolation)).toEqual([
      "the server shows neither transaction_isolation nor tx_isolation: its isolation is unknown",
    ]);
    expect(problems({ ...mysql, time_zone: "SYSTEM", innodb_lock_wait_timeout: "50" })).toEqual([
      "time_zone is SYSTEM, not +00:00: DATETIME values would be read and written off UTC",
      "innodb_lock_wait_timeout is 50, not 3 s",
    ]);
  });

  it("refuses a sql_mode other than the ledger's, saying what breaks: backslash escapes, no strict mode", () => {
    const [backslashes] = problems({ ...mariadb, sql_mode: `${ledgerSqlMode},NO_BACKSLASH_ESCAPES` });
    expect(backslashes).toContain(
      "NO_BACKSLASH_ESCAPES: values escaped with backslashes (mysql2) would be stored wrong",
    );
    const [lax] = problems({ ...mysql, sql_mode: "NO_ENGINE_SUBSTITUTION" });
    expect(lax).toContain("not strict: a value that does not fit would be stored truncated or clamped");
    expect(problems({ ...mysql, sql_mode: `ANSI_QUOTES,${ledgerSqlMode}` })).toHaveLength(1);
    // The order a server lists them in does not matter.
    expect(problems({ ...tidb, sql_mode: ledgerSqlMode.split(",").reverse().join(",") })).toEqual([]);
  });

  it("refuses READ COMMITTED with statement-based binary logging (every write would fail: 1665), not with ROW or MIXED, nor without a binary log", () => {
    expect(problems({ ...mysql, binlog_format: "STATEMENT" })).toEqual([
      expect.stringMatching(/^binlog_format is STATEMENT with binary logging on.*set binlog_format = ROW/),
    ]);
    expect(problems({ ...mariadb, log_bin: "ON", binlog_format: "STATEMENT" })).toHaveLength(1);
    expect(problems({ ...mariadb, log_bin: "OFF", binlog_format: "STATEMENT" })).toEqual([]);
    expect(problems({ ...mysql, binlog_format: "MIXED" })).toEqual([]);
    // TiDB's log_bin is its own TiDB Binlog, not MySQL's statement log.
    expect(problems({ ...tidb, log_bin: "ON", binlog_format: "STATEMENT" })).toEqual([]);
  });

  it("refuses a TiDB whose CHECK constraints are off, or too old to have them, or that runs optimistic transactions", () => {
    expect(problems({ ...tidb, tidb_enable_check_constraint: "OFF" })).toEqual([
      expect.stringMatching(
        /^TiDB's tidb_enable_check_constraint is OFF.*SET GLOBAL tidb_enable_check_constraint = ON/,
      ),
    ]);
    const { tidb_enable_check_constraint: _, ...before72 } = tidb;
    expect(problems({ ...before72, version: "8.0.11-TiDB-v7.1.0" })).toEqual([
      expect.stringMatching(/^TiDB without tidb_enable_check_constraint \(before v7\.2\)/),
    ]);
    for (const mode of ["optimistic", ""])
      expect(problems({ ...tidb, tidb_txn_mode: mode })).toEqual([
        expect.stringMatching(/^TiDB runs optimistic transactions.*SET GLOBAL tidb_txn_mode = 'pessimistic'/),
      ]);
  });

  it("knows a TiDB whose server-version hides it from VERSION(): its own variables say TiDB", () => {
    // `server-version = "8.0.11"` in TiDB's configuration: VERSION() and `version` read as MySQL's.
    const disguised = { ...tidb, version: "8.0.11", version_comment: "" };
    expect(flavorOf(disguised)).toBe("tidb");
    expect(problems({ ...disguised, tidb_enable_check_constraint: "OFF" })).toHaveLength(1);
    expect(checkConstraintsProblem({ ...disguised, tidb_enable_check_constraint: "0" })).toMatch(/is OFF/);
    expect([flavorOf(mysql), flavorOf(mariadb)]).toEqual(["mysql", "mariadb"]);
    expect([
      checkConstraintsProblem(mysql),
      checkConstraintsProblem(mariadb),
      checkConstraintsProblem(tidb),
    ]).toEqual([undefined, undefined, undefined]);
  });

  it("sets and reads the session in the common dialect, with mode names all three accept", () => {
    const statements = [...sessionStatements(3), showVariables(sessionVariables)];
    expect(statements.flatMap((statement) => portabilityProblems(statement))).toEqual([]);
    // MySQL 8.4 removed NO_AUTO_CREATE_USER (MariaDB's default has it): naming it would fail there.
    const mysql84Default =
      "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";
    expect(ledgerSqlMode.split(",").filter((mode) => !mysql84Default.split(",").includes(mode))).toEqual([]);
    expect(sessionStatements(3)[1]).toBe(
      `SET SESSION time_zone = '+00:00', SESSION innodb_lock_wait_timeout = 3, SESSION sql_mode = '${ledgerSqlMode}'`,
    );
  });
});
