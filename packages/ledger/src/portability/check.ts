import { type Forbidden, forbidden } from "./forbidden.ts";
import type { PortabilityProblem } from "./problem.ts";
import { reservedWordProblems } from "./reserved-words.ts";

export type { PortabilityProblem };

/**
 * A statement as the rules read it: comments dropped, string literals and numbers blanked (an id
 * that reads "RETURNING" is data, not SQL), whitespace collapsed, and runs of value tuples folded
 * so that a statement is one shape however many rows it carries (`statementShape`).
 */
export function statementShape(sql: string): string {
  return sql
    .replace(/'(?:[^'\\]|\\.|'')*'/gs, "'?'")
    .replace(/"(?:[^"\\]|\\.|"")*"/gs, '"?"')
    .replace(/\/\*(?!\+)[\s\S]*?\*\//g, " ")
    .replace(/(?:--\s|#)[^\n]*/g, " ")
    .replace(/\b0x[0-9a-f]+\b|\b\d+(?:\.\d+)?\b/gi, "?")
    .replace(/\s+/g, " ")
    .replace(/\((?:\s*(?:\?|'\?'|NULL|DEFAULT)\s*,)*\s*(?:\?|'\?'|NULL|DEFAULT)\s*\)/gi, "(?)")
    .replace(/\(\?\)(?:\s*,\s*\(\?\))+/g, "(?)")
    .trim();
}

/** What in `sql` is outside the common dialect, by the list in `forbidden.ts`. */
export function portabilityProblems(sql: string, rules: Forbidden[] = forbidden): PortabilityProblem[] {
  const shape = statementShape(sql);
  const problems: PortabilityProblem[] = [];
  for (const rule of rules) {
    const match = rule.pattern.exec(shape);
    if (!match) continue;
    const from = Math.max(0, match.index - 60);
    problems.push({
      construct: rule.name,
      why: rule.why,
      sources: rule.sources,
      excerpt: `${from > 0 ? "…" : ""}${shape.slice(from, match.index + match[0].length + 60)}${match.index + match[0].length + 60 < shape.length ? "…" : ""}`,
    });
  }
  // And every word one of the servers reserves, used as an identifier (`reserved-words.ts`).
  problems.push(...reservedWordProblems(shape));
  return problems;
}

/** One line per problem, for a test failure an engineer can act on. */
export function describeProblems(problems: PortabilityProblem[]): string {
  return problems
    .map((p) => `${p.construct}: ${p.why}\n    in: ${p.excerpt}\n    see: ${p.sources.join(" ")}`)
    .join("\n");
}
