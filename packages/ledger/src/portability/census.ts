import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { type BuilderChain, builderChains, describeKey, type StatementKey } from "./census-builder.ts";
import { rawTexts, wildcard } from "./census-raw.ts";
import { describeProblems, type PortabilityProblem, portabilityProblems, statementShape } from "./check.ts";

/**
 * THE CENSUS: every statement the product can send, read from its source rather than from what a
 * test happened to run (issue 42). Its scope is where SQL may be: `packages/ledger` (no other app or
 * package depends on mysql2 or drizzle-orm, `.dependency-cruiser.cjs` rule `sql-only-in-ledger`),
 * every non-test file under `src/` (not `*.test.ts`, not the test helpers of `testing/`, not this
 * gate's own `portability/`) and every migration in `migrations/*.sql`. Each *site* is one statement
 * (or one fragment of one) as the source writes it:
 * - raw: a string, template or drizzle `sql\`…\`` whose text is SQL (`census-raw.ts`), shaped as the
 *   general log's statements are (`statementShape`), `…` where an interpolation is not a constant;
 * - builder: a drizzle chain, known by its verb, tables, clauses and the columns it always names
 *   (`census-builder.ts`); a `db.transaction` is its `begin`, `commit` and `rollback`;
 * - migration: a statement of a `.sql` migration, as `migrations/sql-steps.ts` sends it.
 */
export interface StatementSite {
  /** `src/side-effects/outbox-queries.ts:181` (with `#2` for a constant's second statement): where to look. */
  id: string;
  kind: "raw" | "builder" | "migration";
  /** Raw and migration: the shape, `wildcard` for each interpolation. */
  shape: string;
  /** Builder: what it is matched by. */
  key?: StatementKey;
  /** One line for a report. */
  excerpt: string;
  /** The literals built into it apart (`census-raw.ts`): held to the rules with it. */
  parts: string[];
}

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A string that reads as SQL and is not sent: each one named, with why (an entry that matches nothing fails). */
export interface NotAStatement {
  file: string;
  text: string;
  why: string;
}

export const notStatements: NotAStatement[] = [
  {
    file: "src/binlog/decoded-rows.ts",
    text: "COMMIT/*!*/;",
    why: "a line of mariadb-binlog's output that the archive reader looks for",
  },
];

export interface CensusOptions {
  /** The package whose files are read (a test's fixture); the ledger's by default. */
  root?: string;
  files?: string[];
  /** The folder of `.sql` migrations under `root`; none when undefined. */
  migrations?: string;
  notStatements?: NotAStatement[];
}

/** The files the census reads: the product's TypeScript under `src/`, relative to `root`. */
export function censusFiles(root = packageRoot): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "testing" && relative !== path.join("src", "portability")) walk(relative);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(relative);
    }
  };
  walk("src");
  return files.sort();
}

/** Every statement site of the product (or of a fixture: `options`). */
export function statementCensus(
  options: CensusOptions = { migrations: "migrations", notStatements },
): StatementSite[] {
  const root = options.root ?? packageRoot;
  const files = options.files ?? censusFiles(root);
  const migrationsDir = options.migrations;
  const skipped = new Set<NotAStatement>();
  const skip = (file: string, text: string) => {
    const entry = options.notStatements?.find((not) => not.file === file && not.text === text);
    if (entry) skipped.add(entry);
    return entry !== undefined;
  };
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(packageRoot, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  const program = ts.createProgram(
    files.map((file) => path.join(root, file)),
    config?.options ?? {},
  );
  const checker = program.getTypeChecker();
  const sites: StatementSite[] = [];
  for (const file of files) {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) throw new Error(`census: ${file} was not read`);
    const where = (node: ts.Node) =>
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    for (const raw of rawTexts(source, checker)) {
      if (skip(file, raw.text)) continue;
      for (const [index, shape] of statementsOf(raw.text).entries())
        sites.push(rawSite(`${where(raw.node)}${index > 0 ? `#${index + 1}` : ""}`, shape, raw.parts));
    }
    for (const chain of builderChains(source, checker)) sites.push(...chainSites(where(chain.node), chain));
  }
  if (migrationsDir)
    for (const file of readdirSync(path.join(root, migrationsDir)).filter((name) => name.endsWith(".sql")))
      sites.push(
        ...migrationSites(
          path.join(migrationsDir, file),
          readFileSync(path.join(root, migrationsDir, file), "utf8"),
        ),
      );
  const stale = (options.notStatements ?? []).filter((entry) => !skipped.has(entry));
  if (stale.length > 0)
    throw new Error(
      `census: not-a-statement entries that match nothing: ${stale.map((e) => `${e.file} ${e.text}`).join(", ")}`,
    );
  return sites;
}

/** A text's statements (a constant may hold several, `;`-separated), each shaped. */
function statementsOf(text: string): string[] {
  return siteShape(text)
    .split(";")
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/**
 * `statementShape` of a site's text, with its interpolations kept as `wildcard`, and value lists
 * that hold one folded as the log's are: `(?, ${x})` is `(…)`, matched by the log's `(?)`.
 */
export function siteShape(text: string): string {
  const value = `(?:\\?|'\\?'|NULL|DEFAULT|${wildcard})`;
  return statementShape(text)
    .replace(new RegExp(`\\((?:\\s*${value}\\s*,)*\\s*${value}\\s*\\)`, "gi"), (tuple) =>
      tuple.includes(wildcard) ? `(${wildcard})` : "(?)",
    )
    .replace(
      new RegExp(`\\((?:\\?|${wildcard})\\)(?:\\s*,\\s*\\((?:\\?|${wildcard})\\))+`, "g"),
      `(${wildcard})`,
    );
}

const readable = (shape: string) => shape.replaceAll(wildcard, "…");
const shorten = (text: string, length = 100) =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

function rawSite(id: string, shape: string, parts: string[]): StatementSite {
  return { id, kind: "raw", shape, excerpt: shorten(readable(shape)), parts };
}

function chainSites(id: string, chain: BuilderChain): StatementSite[] {
  if (chain.key.verb !== "transaction")
    return [{ id, kind: "builder", shape: "", key: chain.key, excerpt: describeKey(chain.key), parts: [] }];
  // drizzle's own statements around a transaction's work (`rollback` when the work throws).
  return ["begin", "commit", "rollback"].map((statement) => ({
    id: `${id} ${statement}`,
    kind: "raw" as const,
    shape: statement,
    excerpt: `db.transaction: ${statement}`,
    parts: [],
  }));
}

/** A `.sql` migration's statements, split as `migrations/sql-steps.ts` splits them. */
export function migrationSites(file: string, text: string): StatementSite[] {
  const sites: StatementSite[] = [];
  let line = 1;
  for (const part of text.split(/^-- step$/m)) {
    const lines = part.split("\n");
    const first = lines.findIndex((candidate) => candidate.trim() !== "" && !candidate.startsWith("--"));
    const sql = lines
      .filter((candidate) => !candidate.startsWith("--"))
      .join("\n")
      .trim()
      .replace(/;$/, "");
    if (sql.length > 0) {
      const shape = siteShape(sql);
      sites.push({
        id: `${file}:${line + first}`,
        kind: "migration",
        shape,
        excerpt: shorten(shape),
        parts: [],
      });
    }
    line += lines.length - 1;
  }
  return sites;
}

/** What of a site is outside the common dialect (`forbidden.ts`), whether or not a test ran it. */
export function siteProblems(site: StatementSite): PortabilityProblem[] {
  const texts =
    site.kind === "builder" && site.key
      ? [builderText(site.key)]
      : // An interpolation reads as a quoted identifier: whatever it is, it is no keyword of its own.
        [site.shape.replaceAll(wildcard, "`_`"), ...site.parts];
  return texts.flatMap((text) => portabilityProblems(text));
}

/** One paragraph per site with a problem, naming the site: what the gate prints. */
export function describeSiteProblems(sites: readonly StatementSite[]): string {
  return sites
    .map((site) => ({ site, problems: siteProblems(site) }))
    .filter(({ problems }) => problems.length > 0)
    .map(
      ({ site, problems }) =>
        `${site.id} (a ${site.kind} site, sent by a test or not):\n${describeProblems(problems)}`,
    )
    .join("\n");
}

/** A builder chain as drizzle writes it, its values and lists left out: what the rules can read of it. */
function builderText(key: StatementKey): string {
  const table = `\`${key.table}\``;
  const head =
    key.verb === "update"
      ? `update ${table} set ?`
      : key.verb === "delete"
        ? `delete from ${table}`
        : key.verb.startsWith("insert")
          ? `${key.verb} into ${table} (?) values (?)`
          : `${key.verb} ? from ${table}`;
  const joins = key.joins.map((join) => join.replace(/ (\w+|\?)$/, " `$1` on ?"));
  // A locking clause takes no argument; the others one.
  const clauses = key.clauses.map((clause) =>
    /^(for |skip locked|nowait)/.test(clause) ? clause : `${clause} ?`,
  );
  return [head, ...joins, ...clauses].join(" ");
}
