import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { describeSiteProblems, type StatementSite, siteProblems, statementCensus } from "./census.ts";
import { coverage, describeCoverage } from "./census-coverage.ts";
import { statementShape } from "./check.ts";

// The census read from a fixture (`fixtures/census/`): one site of each kind, and strings that only
// look like SQL. Then the coverage of its sites by statements as MariaDB's general log shows them.
const fixture = fileURLToPath(new URL("./fixtures/census/", import.meta.url));
let sites: StatementSite[] = [];
beforeAll(() => {
  sites = statementCensus({ root: fixture, migrations: "migrations" });
}, 60_000);

const byId = (id: string) => {
  const site = sites.find((candidate) => candidate.id === id);
  if (!site) throw new Error(`no site ${id}`);
  return site;
};

/** What the log holds once the fixture ran (values bound by mysql2, drizzle's own lower case). */
const sent = [
  "SELECT id, balance FROM wallets WHERE id = 1",
  "UPDATE wallets SET balance = balance + CASE id WHEN 1 THEN 5 WHEN 2 THEN -5 END WHERE id IN (1, 2)",
  "SAVEPOINT fixture_point",
  "INSERT INTO write_checks (k) SELECT 1 FROM wallets WHERE id IN (7, 8, 9) LIMIT 1",
  "SELECT COUNT(*) AS n FROM outbox WHERE topic = 'loyalty' AND dead_at IS NULL",
  "begin",
  "select `id` from `outbox` where `outbox`.`published_at` is null order by `outbox`.`id` asc limit 5 for update skip locked",
  "update `wallets` set `balance` = `wallets`.`balance` + 1 where `wallets`.`id` = 1",
  "commit",
  "rollback",
  "delete from `outbox` where `outbox`.`id` = 3",
  "CREATE TABLE IF NOT EXISTS `counters` (\n  `n` int NOT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
  "CREATE TABLE IF NOT EXISTS `totals` (\n  `t` int NOT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
].map(statementShape);

describe("the census of a source's SQL", () => {
  it("reads raw SQL (strings, templates, drizzle's sql``), drizzle chains, transactions and migrations, and nothing that only looks like SQL", () => {
    expect(sites.map((site) => `${site.id} ${site.kind}: ${site.excerpt}`)).toEqual([
      "src/queries.ts:21 raw: SELECT id, balance FROM wallets WHERE id = ?",
      "src/queries.ts:23 raw: UPDATE wallets SET balance = balance + … WHERE id IN (…)",
      // A constant is read as its value.
      "src/queries.ts:25 raw: SAVEPOINT fixture_point",
      // A concatenation is one statement.
      "src/queries.ts:28 raw: INSERT INTO write_checks (k) SELECT ? FROM wallets WHERE id IN (…) LIMIT ?",
      "src/queries.ts:34 raw: SELECT COUNT(*) AS n FROM outbox WHERE topic = … AND …",
      "src/queries.ts:34 raw: dead_at IS NULL",
      "src/queries.ts:40 raw: SELECT TIMESTAMPDIFF(MICROSECOND, o.created_at, o.published_at) AS lag FROM outbox o",
      "src/queries.ts:45 builder: select outbox where, order by, limit, for update, skip locked",
      "src/queries.ts:52 builder: update wallets where",
      "src/queries.ts:44 begin raw: db.transaction: begin",
      "src/queries.ts:44 commit raw: db.transaction: commit",
      "src/queries.ts:44 rollback raw: db.transaction: rollback",
      "src/queries.ts:57 builder: delete outbox where",
      "migrations/0001_fixture.sql:2 migration: CREATE TABLE IF NOT EXISTS `counters` ( `n` int NOT NULL ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 CO…",
      "migrations/0001_fixture.sql:6 migration: CREATE TABLE IF NOT EXISTS `totals` ( `t` int NOT NULL ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLL…",
    ]);
    // A chain is known by its verb, tables, clauses and the columns it always names.
    expect(byId("src/queries.ts:45").key).toEqual({
      verb: "select",
      table: "outbox",
      joins: [],
      clauses: ["where", "order by", "limit", "for update", "skip locked"],
      columns: ["id", "published_at"],
    });
  });

  it("holds every site to the rules, run or not: the alias `lag` of a statement no test sends is reported", () => {
    const problems = sites.flatMap((site) =>
      siteProblems(site).map((problem) => [site.id, problem.construct]),
    );
    expect(problems).toEqual([["src/queries.ts:40", "a reserved word used as an identifier"]]);
    expect(describeSiteProblems(sites)).toMatch(
      /^src\/queries\.ts:40 \(a raw site, sent by a test or not\):\n[\s\S]*AS lag FROM outbox o/,
    );
  });
});

describe("the rules on a drizzle chain", () => {
  it("are held to the SQL drizzle writes for it: a chain locking FOR SHARE is refused, its FOR UPDATE passes", () => {
    const chain = (clauses: string[]): StatementSite => ({
      id: "chain",
      kind: "builder",
      shape: "",
      key: { verb: "select", table: "rounds", joins: ["left join round_closes"], clauses, columns: [] },
      excerpt: "",
      parts: [],
    });
    expect(siteProblems(chain(["where", "for share"])).map((problem) => problem.construct)).toEqual([
      "FOR SHARE",
    ]);
    expect(siteProblems(chain(["where", "order by", "limit", "for update", "skip locked"]))).toEqual([]);
  });
});

describe("the coverage of the census by the captured statements", () => {
  it("sees a site in a statement sent with its values bound, a fragment inside the statement it joins, and a chain as drizzle writes it", () => {
    const result = coverage(sites, sent);
    expect(result.unseen.map((site) => site.id)).toEqual(["src/queries.ts:40"]);
    expect(result.unknown).toEqual([]);
    expect(describeCoverage(result).split("\n")).toEqual([
      "portability gate coverage: 14 of 15 statement sites seen (93.3%)",
      "  never sent by a test (1):",
      "    src/queries.ts:40  SELECT TIMESTAMPDIFF(MICROSECOND, o.created_at, o.published_at) AS lag FROM outbox o",
    ]);
  });

  it("names what was sent that no site accounts for, and does not count it as any site", () => {
    const result = coverage(sites, [
      // The claim without SKIP LOCKED is another statement than the fixture's.
      statementShape(
        "select `id` from `outbox` where `outbox`.`published_at` is null order by `outbox`.`id` asc limit 5 for update",
      ),
      statementShape("DELETE FROM wallets WHERE id = 4"),
    ]);
    expect(result.unknown).toEqual([
      "select `id` from `outbox` where `outbox`.`published_at` is null order by `outbox`.`id` asc limit ? for update",
      "DELETE FROM wallets WHERE id = ?",
    ]);
    expect(result.unseen.map((site) => site.id)).toContain("src/queries.ts:45");
    expect(describeCoverage(result)).toContain("sent, but from no site the census knows (2):");
  });

  it("a chain that names fewer of its columns is not seen: each branch of a query is its own statement", () => {
    const result = coverage(sites, [
      statementShape("update `wallets` set `seq` = 1 where `wallets`.`id` = 1"),
    ]);
    expect(result.unseen.map((site) => site.id)).toContain("src/queries.ts:52");
    // It is still one the census knows: the chain's verb, table and clauses.
    expect(result.unknown).toEqual([]);
  });

  it("a statement the log cut short (a four-byte character in a utf8mb3 log) is accounted for by its beginning", () => {
    const cut = statementShape("SELECT id, balance FROM wallets WHERE id = '\\xF0\\x9F\\x98\\x80\\xF0\\x9F");
    expect(coverage(sites, [cut]).unknown).toEqual([
      "SELECT id, balance FROM wallets WHERE id = '\\xF0\\x9F\\x98\\x80\\xF0\\x9F",
    ]);
    expect(coverage(sites, [cut], new Set([cut])).unknown).toEqual([]);
  });
});

describe("the product's census", () => {
  it("reads the ledger: the relay's claim and the group commit's wallet update among its sites, every not-a-statement entry used", () => {
    // statementCensus throws if an entry of `notStatements` matches nothing.
    const product = statementCensus();
    expect(product.length).toBeGreaterThan(200);
    expect(product.map((site) => site.excerpt)).toEqual(
      expect.arrayContaining([
        "select outbox where, order by, limit, for update, skip locked",
        "UPDATE wallets SET balance = balance + …, seq = seq + …, updated_at = CURRENT_TIMESTAMP(?) WHERE id…",
      ]),
    );
    // Every migration statement is a site of its own.
    expect(product.filter((site) => site.kind === "migration").length).toBeGreaterThan(20);
  }, 60_000);
});
