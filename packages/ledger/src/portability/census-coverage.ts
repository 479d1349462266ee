import type { StatementSite } from "./census.ts";
import { sameKey, statementKey } from "./census-builder.ts";
import { wildcard } from "./census-raw.ts";

/**
 * How much of the census (`census.ts`) the captured statements show, and what they show that the
 * census does not know. A site is *seen* when a captured statement matches it:
 * - raw or migration: its shape, each `wildcard` standing for any text, found within one captured
 *   statement (a fragment such as `… > CURRENT_TIMESTAMP(?)` is seen inside the statement it joins);
 * - builder: a captured statement drizzle wrote with its verb, tables and clauses (`statementKey`).
 * A captured statement is *known* when one site accounts for all of it: a raw or migration site
 * matching it whole, or a builder site with its key. One the census does not know means the census
 * is blind to some of the product's SQL.
 */
export interface Coverage {
  sites: number;
  seen: number;
  unseen: StatementSite[];
  /** Captured statements no site accounts for. */
  unknown: string[];
}

/** One captured statement, as the matching reads it. */
interface Captured {
  text: string;
  /** `text` with bound values as the source writes them (`comparable`). */
  comparable: string;
  key: ReturnType<typeof statementKey>;
  /** Every backquoted identifier: the columns drizzle named. */
  named: Set<string>;
  /** Cut short by the log (`captured`): only its beginning is known. */
  cut: boolean;
}

/**
 * Each statement of the captured shapes (a round trip may carry several, `;`-separated), and
 * whether the log cut it short: the last of a shape in `cut` (the entry ends there).
 */
export function capturedStatements(
  shapes: Iterable<string>,
  cut: ReadonlySet<string> = new Set(),
): Map<string, boolean> {
  const statements = new Map<string, boolean>();
  for (const shape of shapes) {
    const parts = shape
      .split(";")
      .map((statement) => statement.trim())
      .filter((statement) => statement.length > 0);
    parts.forEach((statement, index) => {
      const cutHere = cut.has(shape) && index === parts.length - 1;
      statements.set(statement, (statements.get(statement) ?? false) || cutHere);
    });
  }
  return statements;
}

/**
 * A value as the source writes it (`?`) and as the log shows it once bound are one: mysql2 writes a
 * `query`'s values into the text it sends (`'?'` once blanked, `NULL`, `X'?'` for bytes), while a
 * prepared statement's are sent apart.
 */
function comparable(text: string): string {
  return text.replace(/\b[Xx]'\?'|'\?'|"\?"|\bNULL\b/g, "?");
}

/**
 * A statement as the matching reads it. One the log cut short (MariaDB's `mysql.general_log` is
 * utf8mb3: from a character of four bytes on, an emoji id, it writes bytes as `\xF0\x9F…` and ends
 * the entry early) keeps only what is certain: up to a string it cut open, if it did
 * (`statementShape` blanks only closed strings).
 */
function captured(statement: string, cut: boolean): Captured {
  const open = cut ? statement.replaceAll("'?'", "___").indexOf("'") : -1;
  const text = open >= 0 ? statement.slice(0, open).trimEnd() : statement;
  return {
    text,
    comparable: comparable(text),
    key: statementKey(text),
    named: new Set([...text.matchAll(/`(\w+)`/g)].map(([, name]) => name ?? "")),
    cut,
  };
}

/** The census held to what was captured: `shapes` (`statementShape`s), `cut` those the log cut short. */
export function coverage(
  sites: readonly StatementSite[],
  shapes: Iterable<string>,
  cut: ReadonlySet<string> = new Set(),
): Coverage {
  const statements = [...capturedStatements(shapes, cut)].map(([statement, wasCut]) =>
    captured(statement, wasCut),
  );
  const patterns = new Map(sites.map((site) => [site, globParts(comparable(site.shape))]));
  const seenIn = (site: StatementSite, statement: Captured) =>
    site.key
      ? statement.key !== undefined && sameKey(site.key, statement.key, statement.named)
      : globMatch(patterns.get(site) ?? [], statement.comparable, false);
  const accountsFor = (site: StatementSite, statement: Captured) => {
    if (site.key)
      return statement.key !== undefined && sameKey(site.key, statement.key, undefined, statement.cut);
    const parts = patterns.get(site) ?? [];
    if (!statement.cut) return globMatch(parts, statement.comparable, true);
    // Cut short: a site that could have begun so (its text up to its first wildcard) accounts for it.
    const [first = ""] = parts;
    return parts.length > 1
      ? statement.comparable.startsWith(first) || first.startsWith(statement.comparable)
      : first.startsWith(statement.comparable);
  };
  const unseen = sites.filter((site) => !statements.some((statement) => seenIn(site, statement)));
  const unknown = statements
    .filter((statement) => !sites.some((site) => accountsFor(site, statement)))
    .map((statement) => (statement.cut ? `${statement.text} …(cut by the log)` : statement.text));
  return { sites: sites.length, seen: sites.length - unseen.length, unseen, unknown };
}

/** The gate's report: the coverage line, then each unseen site and each unknown statement. */
export function describeCoverage(result: Coverage): string {
  const percent = result.sites === 0 ? 100 : Math.floor((1000 * result.seen) / result.sites) / 10;
  const lines = [
    `portability gate coverage: ${result.seen} of ${result.sites} statement sites seen (${percent}%)`,
  ];
  if (result.unseen.length > 0) {
    lines.push(`  never sent by a test (${result.unseen.length}):`);
    for (const site of result.unseen) lines.push(`    ${site.id}  ${site.excerpt}`);
  }
  if (result.unknown.length > 0) {
    lines.push(`  sent, but from no site the census knows (${result.unknown.length}):`);
    for (const statement of result.unknown) lines.push(`    ${shorten(statement)}`);
  }
  return lines.join("\n");
}

const shorten = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/** A shape's literal pieces between its wildcards; the spaces next to a wildcard are the wildcard's. */
export function globParts(shape: string): string[] {
  const parts = shape.split(wildcard);
  return parts.map((part, index) => {
    let trimmed = part;
    if (index > 0) trimmed = trimmed.trimStart();
    if (index < parts.length - 1) trimmed = trimmed.trimEnd();
    return trimmed;
  });
}

/**
 * Whether `text` holds the pieces in order (`whole`: is exactly them, wildcards between). Each piece
 * is taken at its first place after the one before: with `*` as the only wildcard that is never
 * worse than a later one, so no backtracking is needed.
 */
export function globMatch(parts: readonly string[], text: string, whole: boolean): boolean {
  const [first = "", ...others] = parts;
  if (others.length === 0) return whole ? text === first : text.includes(first);
  let at: number;
  if (whole) {
    if (!text.startsWith(first)) return false;
    at = first.length;
  } else {
    const found = text.indexOf(first);
    if (found < 0) return false;
    at = found + first.length;
  }
  const last = others.pop() ?? "";
  for (const part of others) {
    const found = text.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  if (!whole) return text.indexOf(last, at) >= 0;
  return text.length - last.length >= at && text.endsWith(last);
}
