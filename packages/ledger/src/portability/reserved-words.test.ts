import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migrations } from "../migrations/index.ts";
import { describeProblems, portabilityProblems, statementShape } from "./check.ts";
import { mariadbReserved, mysql84Reserved, reservedBy, tidbReserved } from "./reserved-word-lists.ts";
import { reservedIdentifiers, reservedWordConstruct } from "./reserved-words.ts";

const used = (sql: string) =>
  reservedIdentifiers(statementShape(sql)).map(({ word, use }) => `${word} ${use}`);

// Each use of a reserved word as an identifier the rule refuses, with its quoted and its renamed spelling.
const cases: Array<[refused: string, quoted: string, renamed: string, found: string | string[]]> = [
  ["SELECT x AS lag FROM t", "SELECT x AS `lag` FROM t", "SELECT x AS previous FROM t", "lag as an alias"],
  ["SELECT lag FROM t", "SELECT `lag` FROM t", "SELECT previous FROM t", "lag as a column or value"],
  [
    "SELECT a FROM t ORDER BY rank",
    "SELECT a FROM t ORDER BY `rank`",
    "SELECT a FROM t ORDER BY place",
    "rank as a column or value",
  ],
  ["SELECT t.groups FROM t", "SELECT t.`groups` FROM t", "SELECT t.cohorts FROM t", "groups after a period"],
  [
    "INSERT INTO t (window, a) VALUES (1, 2)",
    "INSERT INTO t (`window`, a) VALUES (1, 2)",
    "INSERT INTO t (span, a) VALUES (1, 2)",
    "window as a column or value",
  ],
  [
    "SELECT a FROM j WHERE lines = 1",
    "SELECT a FROM j WHERE `lines` = 1",
    "SELECT a FROM j WHERE line_count = 1",
    "lines as a column or value",
  ],
  [
    "SELECT COUNT(*) AS lines FROM j",
    "SELECT COUNT(*) AS `lines` FROM j",
    "SELECT COUNT(*) AS line_count FROM j",
    "lines as an alias",
  ],
  [
    "SELECT rank.x FROM r AS s",
    "SELECT `rank`.x FROM r AS s",
    "SELECT place.x FROM r AS s",
    "rank as a qualifier",
  ],
  ["SELECT a FROM window", "SELECT a FROM `window`", "SELECT a FROM spans", "window as a table name"],
  [
    "INSERT INTO rank (a) VALUES (1)",
    "INSERT INTO `rank` (a) VALUES (1)",
    "INSERT INTO places (a) VALUES (1)",
    "rank as a table name",
  ],
  [
    "UPDATE t SET lines = lines + 1",
    "UPDATE t SET `lines` = `lines` + 1",
    "UPDATE t SET line_count = line_count + 1",
    ["lines as a column or value", "lines as a column or value"],
  ],
  [
    "SELECT a FROM t GROUP BY offset, a",
    "SELECT a FROM t GROUP BY `offset`, a",
    "SELECT a FROM t GROUP BY shift, a",
    "offset as a column or value",
  ],
  [
    "SELECT a FROM t WHERE rows IN (1, 2)",
    "SELECT a FROM t WHERE `rows` IN (1, 2)",
    "SELECT a FROM t WHERE row_count IN (1, 2)",
    "rows as a column or value",
  ],
  [
    "SELECT a FROM t WHERE of IS NULL",
    "SELECT a FROM t WHERE `of` IS NULL",
    "SELECT a FROM t WHERE owner IS NULL",
    "of as a column or value",
  ],
  [
    "SELECT a FROM t WHERE b < lead",
    "SELECT a FROM t WHERE b < `lead`",
    "SELECT a FROM t WHERE b < head",
    "lead as a column or value",
  ],
  [
    "CREATE TABLE t (id int, window int)",
    "CREATE TABLE t (id int, `window` int)",
    "CREATE TABLE t (id int, span int)",
    "window as a column",
  ],
  [
    "ALTER TABLE t ADD COLUMN rank int",
    "ALTER TABLE t ADD COLUMN `rank` int",
    "ALTER TABLE t ADD COLUMN place int",
    "rank as a name",
  ],
  [
    "CREATE INDEX rank ON t (a)",
    "CREATE INDEX `rank` ON t (a)",
    "CREATE INDEX t_a ON t (a)",
    "rank as a name",
  ],
  [
    "INSERT INTO t (k, n) VALUES (1, 2) ON DUPLICATE KEY UPDATE lines = lines + VALUES(lines)",
    "INSERT INTO t (k, n) VALUES (1, 2) ON DUPLICATE KEY UPDATE `lines` = `lines` + VALUES(`lines`)",
    "INSERT INTO t (k, n) VALUES (1, 2) ON DUPLICATE KEY UPDATE n = n + VALUES(n)",
    ["lines as a column", "lines as a column or value", "lines as a column or value"],
  ],
];

// Reserved words the product's SQL uses as keywords, in the places the rule must leave them.
const keywords = [
  "SELECT LAG(a) OVER (PARTITION BY b ORDER BY c) AS previous, RANK() OVER w AS place FROM t WINDOW w AS (ORDER BY c)",
  "SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS n FROM t",
  "SELECT DISTINCT a FROM t WHERE b IS NOT NULL AND c IN (SELECT d FROM u) ORDER BY a DESC LIMIT 10 OFFSET 5",
  "SELECT 1 FROM DUAL WHERE NOT EXISTS (SELECT 1 FROM t WHERE a = 1) FOR UPDATE",
  "SELECT a FROM t WHERE b = 1 FOR UPDATE SKIP LOCKED",
  "INSERT INTO t (a, b, c) VALUES (1, DEFAULT, NULL) ON DUPLICATE KEY UPDATE b = b + VALUES(b)",
  "UPDATE t SET a = CASE id WHEN 1 THEN 2 ELSE a END, b = CURRENT_TIMESTAMP(3) WHERE id IN (1)",
  "DELETE FROM t WHERE created_at < NOW(3) - INTERVAL 3 DAY ORDER BY created_at LIMIT 500",
  "SELECT CAST(a AS UNSIGNED), CAST(b AS CHAR(3)), CONVERT(c USING utf8mb4) FROM t",
  "SELECT SUM(CASE WHEN a THEN 1 ELSE 0 END) AS n, COUNT(DISTINCT b) FROM t GROUP BY c WITH ROLLUP",
  "CREATE TABLE IF NOT EXISTS `t` (`id` bigint unsigned NOT NULL, `c` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), CONSTRAINT `pk` PRIMARY KEY(`id`), UNIQUE KEY `u` (`c`), INDEX `i` (`c`), CHECK (`id` >= 0)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
  "ALTER TABLE t ADD INDEX i (a), ALGORITHM=INPLACE, LOCK=NONE",
  "ALTER TABLE t DROP PRIMARY KEY, ADD CONSTRAINT c UNIQUE (a)",
  "DROP INDEX i ON t",
  "GRANT SELECT, INSERT, UPDATE, DELETE ON w.t TO 'app'@'%'",
  // The migrator's grant (`schema/privileges.ts`), as the gate reads it from the DBA who runs it.
  "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX, REFERENCES ON `w\\_db`.* TO 'm'@'%'",
  "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
  "SET autocommit = 0; START TRANSACTION; SAVEPOINT s; RELEASE SAVEPOINT s; COMMIT",
  "SELECT @@global.read_only, GET_LOCK('m', 10), RELEASE_LOCK('m')",
  "INSERT INTO write_checks (k) SELECT 1 FROM DUAL WHERE (SELECT COUNT(*) FROM wallets WHERE id IN (1)) <> 1",
];

describe("reserved words (reserved-words.ts)", () => {
  for (const [refused, quoted, renamed, found] of cases)
    it(`"${refused}" is refused (${found}); quoted or renamed it passes`, () => {
      expect(used(refused)).toEqual(typeof found === "string" ? [found] : found);
      expect(used(quoted)).toEqual([]);
      expect(used(renamed)).toEqual([]);
    });

  it("leaves the words the product writes as keywords, and function calls, alone", () => {
    expect(keywords.flatMap(used)).toEqual([]);
  });

  it("names the servers that reserve the word, and is part of the portability check", () => {
    const [problem, ...rest] = portabilityProblems("SELECT x AS lag FROM t");
    expect(rest).toEqual([]);
    expect(problem?.construct).toBe(reservedWordConstruct);
    expect(problem?.why).toBe(
      "`lag`, as an alias, is reserved by MySQL 8.4, TiDB: quote it (`lag`) or rename it",
    );
    expect(portabilityProblems("SELECT 1 AS offset")[0]?.why).toMatch(/reserved by MariaDB 10\.11\+:/);
    expect(describeProblems(portabilityProblems("SELECT a FROM t WHERE lines = 1"))).toMatch(
      /reserved by MySQL 8\.4, MariaDB 10\.11\+, TiDB: .*\n {4}in: SELECT a FROM t WHERE lines = \?\n {4}see: https:\/\/dev\.mysql\.com/,
    );
  });

  it("finds none in any statement of any migration", () => {
    const problems = migrations.flatMap((migration) =>
      migration.steps.flatMap((step) => portabilityProblems(step.sql)),
    );
    expect(describeProblems(problems.filter((p) => p.construct === reservedWordConstruct))).toBe("");
  });

  it("finds the reserved column an earlier migration would have added unquoted", () => {
    const legacy = readFileSync(new URL("../../migrations/0001_baseline.sql", import.meta.url), "utf8");
    const unquoted = legacy.replace("`granted` int NOT NULL", "rank int NOT NULL");
    expect(used(unquoted.split("-- step").find((step) => step.includes("rank int")) ?? "")).toEqual([
      "rank as a column",
    ]);
  });

  it("holds the lists as read: sizes and words each server alone reserves", () => {
    expect([mysql84Reserved.size, mariadbReserved.size, tidbReserved.size]).toEqual([259, 251, 232]);
    expect(reservedBy("lag")).toEqual(["MySQL 8.4", "TiDB"]);
    expect(reservedBy("OFFSET")).toEqual(["MariaDB 10.11+"]);
    expect(reservedBy("lateral")).toEqual(["MySQL 8.4"]);
    expect(reservedBy("ilike")).toEqual(["TiDB"]);
    expect(reservedBy("cube")).toEqual([]); // nonreserved since MySQL 8.3
    expect(reservedBy("master_bind")).toEqual([]); // removed in MySQL 8.4
    expect(reservedBy("lines")).toEqual(["MySQL 8.4", "MariaDB 10.11+", "TiDB"]);
  });
});
