import type { PortabilityProblem } from "./problem.ts";
import { reservedBy, reservedWordSources } from "./reserved-word-lists.ts";

/**
 * A word one of the three servers reserves (`reserved-word-lists.ts`), used as an identifier and
 * not quoted with backticks: refused by that server (1064), however well the others take it. The
 * rule reads a statement as tokens (after `statementShape`: literals are already `?`), and calls a
 * reserved word an identifier where only a name can stand: after AS; next to a period (`t.word`,
 * `word.col`); as a table after FROM, JOIN, INTO, UPDATE, TABLE, REFERENCES; as a name in DDL; as a
 * column of CREATE TABLE, ALTER TABLE or ON DUPLICATE KEY UPDATE; and as an operand: between a
 * list, comparison or clause start (`,` `(` `=` SELECT WHERE SET BY …) and a list, comparison or
 * clause end (`,` `)` `=` IN IS FROM AS ASC …), which covers column lists, SET, comparisons and
 * ORDER/GROUP BY. Never one followed by `(` (a function call, LAG(…), a type, KEY(…)), nor the
 * words an expression or a clause is made of (NULL, DEFAULT, CASE, INTERVAL, DUAL, …).
 */
export const reservedWordConstruct = "a reserved word used as an identifier";

type Kind = "word" | "quoted" | "value" | "punct";
interface Token {
  text: string;
  upper: string;
  kind: Kind;
  index: number;
}

const tokenPattern =
  /`(?:[^`]|``)*`|'\?'|"\?"|@@?[\w$.]+|[A-Za-z_$][\w$]*|\d[\w$]*|\?|<=>|<>|!=|>=|<=|:=|\S/g;

function tokenize(shape: string): Token[] {
  const tokens: Token[] = [];
  for (const match of shape.matchAll(tokenPattern)) {
    const text = match[0];
    const first = text[0] ?? "";
    const kind: Kind =
      first === "`"
        ? "quoted"
        : /[A-Za-z_$]/.test(first)
          ? "word"
          : /[\d?'"@]/.test(first)
            ? "value"
            : "punct";
    tokens.push({ text, upper: text.toUpperCase(), kind, index: match.index });
  }
  return tokens;
}

const set = (list: string) => new Set(list.trim().split(/\s+/));
const comparisons = "= < > <= >= <> != <=> + - * / %";
/** What an operand follows: a list, a comparison, or a clause that takes an expression. */
const operandStart = set(`, ( ${comparisons}
  SELECT WHERE AND OR XOR NOT ON SET WHEN THEN ELSE HAVING BY DISTINCT LIKE BETWEEN CASE RETURNING`);
/** What an operand is followed by. */
const operandEnd = set(`, ) ; ${comparisons}
  FROM AS IN IS NOT LIKE BETWEEN AND OR XOR WHERE ORDER GROUP HAVING LIMIT OFFSET ASC DESC THEN WHEN
  ELSE END FOR UNION COLLATE REGEXP RLIKE DIV MOD WINDOW`);
/** Reserved words that are themselves values or expression syntax where an operand stands. */
const expressionWords = set(`NULL TRUE FALSE DEFAULT MAXVALUE CURRENT_DATE CURRENT_TIME
  CURRENT_TIMESTAMP CURRENT_USER CURRENT_ROLE LOCALTIME LOCALTIMESTAMP UTC_DATE UTC_TIME
  UTC_TIMESTAMP CASE WHEN THEN ELSE NOT EXISTS INTERVAL DISTINCT DISTINCTROW ALL SELECT WITH VALUES
  ROW BINARY AND OR XOR DIV MOD`);
/** Reserved words a table-name position takes as a keyword. */
const notTableNames: Record<string, Set<string>> = {
  FROM: set("DUAL"),
  TABLE: set("IF"),
  UPDATE: set("LOW_PRIORITY IGNORE"),
  INTO: set("OUTFILE DUMPFILE"),
  JOIN: set("LATERAL"),
};
/** What starts an item of CREATE TABLE's body or follows ALTER TABLE's ADD, DROP, …: not a column. */
const definitionWords = set(`CONSTRAINT PRIMARY UNIQUE INDEX KEY CHECK FOREIGN FULLTEXT SPATIAL
  COLUMN PARTITION IF DEFAULT SYSTEM PERIOD`);

interface Frame {
  opener: string;
  body: boolean;
}

/** Each reserved word of `shape` used as an identifier, where it stands and how it is used. */
export function reservedIdentifiers(shape: string): Array<{ word: string; index: number; use: string }> {
  const found: Array<{ word: string; index: number; use: string }> = [];
  const tokens = tokenize(shape);
  let start = 0;
  for (let at = 0; at <= tokens.length; at++) {
    if (at < tokens.length && tokens[at]?.text !== ";") continue;
    found.push(...inStatement(tokens.slice(start, at)));
    start = at + 1;
  }
  return found;
}

function inStatement(tokens: Token[]): Array<{ word: string; index: number; use: string }> {
  const found: Array<{ word: string; index: number; use: string }> = [];
  const words = tokens.filter((token) => token.kind === "word").map((token) => token.upper);
  const verb = words[0] ?? "";
  const ddl = ["CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"].includes(verb);
  const alterTable = verb === "ALTER" && words[1] === "TABLE";
  const createTable = verb === "CREATE" && words.slice(1, 3).includes("TABLE");
  const indexDdl = (verb === "CREATE" || verb === "DROP") && words.slice(1, 3).includes("INDEX");
  const privileges = verb === "GRANT" || verb === "REVOKE";
  const frames: Frame[] = [];
  let bodySeen = false;
  tokens.forEach((token, at) => {
    const prev = tokens[at - 1];
    const next = tokens[at + 1];
    if (token.text === "(") {
      const body = createTable && frames.length === 0 && !bodySeen;
      bodySeen ||= body;
      frames.push({ opener: prev?.kind === "word" ? prev.upper : "", body });
      return;
    }
    if (token.text === ")") {
      frames.pop();
      return;
    }
    if (token.kind !== "word" || reservedBy(token.text).length === 0) return;
    const use = identifierUse(token, prev, tokens[at - 2], next, {
      frame: frames[frames.length - 1],
      ddl,
      alterTable,
      indexDdl,
      privileges,
      rename: ddl && words.includes("RENAME"),
      statementStart: at === 1,
    });
    if (use) found.push({ word: token.text, index: token.index, use });
  });
  return found;
}

interface Context {
  frame: Frame | undefined;
  ddl: boolean;
  alterTable: boolean;
  indexDdl: boolean;
  privileges: boolean;
  /** RENAME TABLE, or ALTER TABLE … RENAME: a name follows TO. */
  rename: boolean;
  /** `prev` is the statement's first token (UPDATE t …). */
  statementStart: boolean;
}

function identifierUse(
  token: Token,
  prev: Token | undefined,
  before: Token | undefined,
  next: Token | undefined,
  context: Context,
): string | undefined {
  const word = token.upper;
  const after = prev?.kind === "word" ? prev.upper : (prev?.text ?? "");
  if (after === ".") return "after a period";
  if (next?.text === ".") return "as a qualifier";
  // In a grant REFERENCES is a privilege (`GRANT …, REFERENCES ON db.*`), not a foreign key's table.
  const tableAfter =
    ["FROM", "JOIN", "INTO", "TABLE"].includes(after) ||
    (after === "REFERENCES" && !context.privileges) ||
    (after === "UPDATE" && context.statementStart) ||
    (after === "ON" && context.indexDdl);
  if (tableAfter) {
    const keyword = notTableNames[after]?.has(word) || (word === "JSON_TABLE" && next?.text === "(");
    return keyword ? undefined : "as a table name";
  }
  if (next?.text === "(") return undefined;
  if (after === "AS") {
    const cast = context.frame?.opener === "CAST" || context.frame?.opener === "CONVERT";
    return cast || ["SELECT", "WITH", "VALUES", "TABLE"].includes(word) ? undefined : "as an alias";
  }
  if (after === "UPDATE" && before?.upper === "KEY") return "as a column";
  if (context.ddl && ["INDEX", "KEY", "CONSTRAINT", "COLUMN", "DATABASE", "SCHEMA", "VIEW"].includes(after))
    return word === "IF" ? undefined : "as a name";
  if (context.rename && after === "TO") return "as a name";
  if (context.alterTable && ["ADD", "DROP", "MODIFY", "CHANGE", "AFTER"].includes(after))
    return definitionWords.has(word) ? undefined : "as a column";
  if (context.frame?.body && (prev?.text === "," || prev?.text === "("))
    return definitionWords.has(word) ? undefined : "as a column";
  // Table options (`LOCK=NONE`, `COLLATE=…`) are keywords before `=`; grants list privileges.
  if ((context.ddl && next?.text === "=") || context.privileges) return undefined;
  const operand = operandStart.has(after) && (next === undefined || operandEnd.has(next.upper));
  return operand && !expressionWords.has(word) ? "as a column or value" : undefined;
}

/** The reserved words `shape` uses as identifiers, as problems of the portability check. */
export function reservedWordProblems(shape: string): PortabilityProblem[] {
  return reservedIdentifiers(shape).map(({ word, index, use }) => {
    const servers = reservedBy(word).join(", ");
    const fix =
      use === "after a period"
        ? "all three read a word after a period as a name, but the same column is refused wherever it is written bare (its CREATE TABLE, a column list, ORDER BY): quote it everywhere or rename it"
        : `quote it (\`${word.toLowerCase()}\`) or rename it`;
    const from = Math.max(0, index - 60);
    const to = index + word.length + 60;
    return {
      construct: reservedWordConstruct,
      why: `\`${word}\`, ${use}, is reserved by ${servers}: ${fix}`,
      sources: reservedWordSources,
      excerpt: `${from > 0 ? "…" : ""}${shape.slice(from, to)}${to < shape.length ? "…" : ""}`,
    };
  });
}
