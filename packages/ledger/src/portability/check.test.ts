import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migrations } from "../migrations/index.ts";
import { describeProblems, portabilityProblems, statementShape } from "./check.ts";
import { forbidden } from "./forbidden.ts";

const legacy = (file: string) =>
  readFileSync(new URL(`../testing/legacy-migrations/${file}`, import.meta.url), "utf8");

// One statement each construct of forbidden.ts refuses, and how the common dialect writes it.
const cases: Array<[construct: string, refused: string, common: string]> = [
  [
    "MariaDB's NO PAD collations",
    "ALTER TABLE t MODIFY id varchar(8) COLLATE utf8mb4_nopad_bin",
    "ALTER TABLE t MODIFY id varbinary(32)",
  ],
  [
    "MySQL's UCA 9.0.0 collations (utf8mb4_0900_*)",
    "CREATE TABLE t (a text) COLLATE=utf8mb4_0900_bin",
    "CREATE TABLE t (a text) COLLATE=utf8mb4_bin",
  ],
  [
    "MariaDB's UCA 14.0.0 collations (utf8mb4_uca1400_*)",
    "SELECT a FROM t ORDER BY a COLLATE utf8mb4_uca1400_ai_ci",
    "SELECT a FROM t ORDER BY a",
  ],
  [
    "a collation outside the common set",
    "CREATE DATABASE w COLLATE utf8mb4_unicode_ci",
    "CREATE DATABASE w COLLATE utf8mb4_bin",
  ],
  [
    "LOCK IN SHARE MODE",
    "SELECT closed_at FROM rounds WHERE id = 1 LOCK IN SHARE MODE",
    "SELECT closed_at FROM rounds WHERE id = 1 FOR UPDATE",
  ],
  [
    "FOR SHARE",
    "SELECT closed_at FROM rounds WHERE id = 1 FOR SHARE",
    "SELECT closed_at FROM rounds WHERE id = 1 FOR UPDATE",
  ],
  ["FOR UPDATE WAIT n", "SELECT 1 FROM wallets FOR UPDATE WAIT 5", "SELECT 1 FROM wallets FOR UPDATE"],
  [
    "triggers, stored routines and events",
    "CREATE TRIGGER no_update BEFORE UPDATE ON j FOR EACH ROW SET @x = 1",
    "GRANT SELECT, INSERT ON w.j TO 'app'@'%'",
  ],
  [
    "SIGNAL and RESIGNAL",
    "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no'",
    "INSERT INTO write_checks (k) VALUES (1), (1)",
  ],
  ["RETURNING", "INSERT INTO t (a) VALUES (1) RETURNING id", "INSERT INTO t (a) VALUES (1)"],
  [
    "IF [NOT] EXISTS on a column or an index",
    "ALTER TABLE t ADD COLUMN IF NOT EXISTS a int",
    "ALTER TABLE t ADD COLUMN a int",
  ],
  [
    "IF [NOT] EXISTS on a column or an index",
    "CREATE INDEX IF NOT EXISTS i ON t (a)",
    "CREATE INDEX i ON t (a)",
  ],
  [
    "IF [NOT] EXISTS on a column or an index",
    "ALTER TABLE t DROP INDEX IF EXISTS i",
    "ALTER TABLE t DROP INDEX i",
  ],
  [
    "a row alias in INSERT … ON DUPLICATE KEY UPDATE",
    "INSERT INTO t (k, n) VALUES (1, 2) AS new ON DUPLICATE KEY UPDATE n = n + new.n",
    "INSERT INTO t (k, n) VALUES (1, 2) ON DUPLICATE KEY UPDATE n = n + VALUES(n)",
  ],
  ["sequences", "SELECT NEXTVAL(s)", "SELECT LAST_INSERT_ID()"],
  [
    "system-versioned and application-time tables",
    "CREATE TABLE t (a int) WITH SYSTEM VERSIONING",
    "CREATE TABLE t (a int)",
  ],
  [
    "OFFSET … FETCH FIRST/NEXT",
    "SELECT a FROM t ORDER BY a OFFSET 5 ROWS FETCH FIRST 10 ROWS ONLY",
    "SELECT a FROM t ORDER BY a LIMIT 10 OFFSET 5",
  ],
  ["LIMIT ROWS EXAMINED", "SELECT a FROM t LIMIT ROWS EXAMINED 1000", "SELECT a FROM t LIMIT 1000"],
  [
    "JSON_TABLE",
    "SELECT * FROM JSON_TABLE('[]', '$[*]' COLUMNS (a int PATH '$')) j",
    "SELECT JSON_EXTRACT('[]', '$[0]')",
  ],
  ["FULLTEXT and SPATIAL", "CREATE FULLTEXT INDEX f ON t (a)", "CREATE INDEX f ON t (a)"],
  ["LOCK TABLES", "LOCK TABLES wallets WRITE", "SELECT GET_LOCK('w', 10)"],
  ["CREATE TABLE … SELECT", "CREATE TABLE copy AS SELECT * FROM wallets", "CREATE TABLE copy (a int)"],
  [
    "a storage engine other than InnoDB",
    "CREATE TABLE t (a int) ENGINE=Aria",
    "CREATE TABLE t (a int) ENGINE=InnoDB",
  ],
  [
    "assigning a user variable inside an expression",
    "SELECT @n := @n + 1 FROM t",
    "SELECT ROW_NUMBER() OVER (ORDER BY a) FROM t",
  ],
  [
    "a statement time limit variable",
    "SET SESSION max_statement_time = 5",
    "SET SESSION innodb_lock_wait_timeout = 5",
  ],
  [
    "a function one of the servers lacks",
    "SELECT ANY_VALUE(a) FROM t GROUP BY b",
    "SELECT MIN(a) FROM t GROUP BY b",
  ],
  [
    "a function one of the servers lacks",
    "SELECT JSON_DETAILED(a) FROM t",
    "SELECT JSON_EXTRACT(a, '$') FROM t",
  ],
];

const constructs = (sql: string) => portabilityProblems(sql).map((problem) => problem.construct);

describe("the portability check (forbidden.ts)", () => {
  it("fails the MariaDB-only collation of the earlier migration 0009, and its triggers of 0001", () => {
    expect(constructs(legacy("0009_exact_ids.sql"))).toContain("MariaDB's NO PAD collations");
    expect(describeProblems(portabilityProblems(legacy("0009_exact_ids.sql")))).toMatch(
      /MariaDB's NO PAD collations: MariaDB-only names.*\n {4}in: .*utf8mb4_nopad_bin.*\n {4}see: https:\/\/dev\.mysql\.com/,
    );
    expect(constructs(legacy("0001_journal_immutable.sql"))).toEqual([
      "triggers, stored routines and events",
      "SIGNAL and RESIGNAL",
    ]);
  });

  it("passes every statement of every migration", () => {
    const problems = migrations.flatMap((migration) =>
      migration.steps.flatMap((step) => portabilityProblems(step.sql)),
    );
    expect(describeProblems(problems)).toBe("");
  });

  for (const [construct, refused, common] of cases)
    it(`${construct}: "${refused}" is refused; "${common}" passes`, () => {
      expect(constructs(refused)).toContain(construct);
      expect(constructs(common)).toEqual([]);
    });

  it("every construct in the list has a case above, and cites where it is written", () => {
    expect(new Set(cases.map(([construct]) => construct))).toEqual(
      new Set(forbidden.map((rule) => rule.name)),
    );
    for (const rule of forbidden)
      expect(rule.sources.every((source) => source.startsWith("https://"))).toBe(true);
  });

  it("reads SQL, not data: a literal naming a construct is not one; value tuples fold into one shape", () => {
    expect(constructs("INSERT INTO t (id, note) VALUES ('x RETURNING y', 'LOCK IN SHARE MODE')")).toEqual([]);
    expect(constructs("SELECT 1 -- RETURNING\nFROM t /* FOR SHARE */")).toEqual([]);
    expect(statementShape("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'it''s'), (NULL, 3)")).toBe(
      "INSERT INTO t (a, b) VALUES (?)",
    );
    expect(statementShape("SELECT id FROM t WHERE id IN (1, 2, 3) AND b = 'q'")).toBe(
      "SELECT id FROM t WHERE id IN (?) AND b = '?'",
    );
  });
});
