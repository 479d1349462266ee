import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

/**
 * PromQL words that look like identifiers but never name a metric. Functions and aggregations are
 * not listed: they are always followed by `(`, which is how they are recognised.
 */
const keywords = new Set([
  "and",
  "or",
  "unless",
  "bool",
  "offset",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "atan2",
  "inf",
  "nan",
]);

// One pass, left to right, so a quote inside a comment (or a `#` inside a string) is read correctly.
const stringsAndComments = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|#[^\n]*/g;
const labelMatchers = /\{[^}]*\}/g;
const nameMatcher = /__name__\s*=\s*"(\d+)"/;
const rangesAndSubqueries = /\[[^\]]*\]/g;
const groupingLists = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g;
const duration = String.raw`(?:\d+(?:ms|[smhdwy]))+|\$\{?\w+\}?`;
const offsets = new RegExp(String.raw`\boffset\s+-?(?:${duration})`, "g");
const grafanaVariables = /\$\{?\w+(?::\w+)?\}?|\[\[\w+\]\]/g;
// Numbers first, so `1e3` or `0x1f` is never read as an identifier.
const tokens = /(0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|([a-zA-Z_:][\w:]*)(\s*\()?/g;

/**
 * The metric names a PromQL expression selects, in order of first appearance, each once.
 * A lexical reading, not a parser: it removes what cannot be a metric name (strings, label matchers,
 * grouping lists, ranges, offsets, numbers, functions, keywords) and keeps the identifiers left over.
 * Grafana variables (`$__rate_interval`, `${x}`) are ignored wherever they appear.
 */
export function metricNamesIn(expr: string): string[] {
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  // Strings become numbered placeholders, so a `}` or `#` inside one cannot confuse what follows,
  // and a name given as a matcher ({__name__="x"}) can still be read back.
  const strings: string[] = [];
  let text = expr.replace(stringsAndComments, (found) => {
    if (found.startsWith("#")) return " ";
    strings.push(found.slice(1, -1));
    return `"${strings.length - 1}"`;
  });
  for (const block of text.match(labelMatchers) ?? []) {
    const named = nameMatcher.exec(block);
    const name = named ? strings[Number(named[1])] : undefined;
    if (name) add(name);
  }
  text = text
    .replace(/"\d+"/g, " ")
    .replace(labelMatchers, " ")
    .replace(rangesAndSubqueries, " ")
    .replace(groupingLists, " ")
    .replace(offsets, " ")
    .replace(grafanaVariables, " ");
  for (const match of text.matchAll(tokens)) {
    const [, number, identifier, call] = match;
    if (number !== undefined || identifier === undefined || call !== undefined) continue;
    if (keywords.has(identifier.toLowerCase())) continue;
    add(identifier);
  }
  return names;
}

/** One PromQL expression found in the repository, with where it was found (for failure messages). */
export interface PromExpression {
  /** Repository-relative path. */
  file: string;
  /** e.g. `panel "Callback rate" › target A`, `group wallet-callback-slo › alert WalletX`. */
  where: string;
  expr: string;
}

export const dashboardsDir = "infra/grafana/dashboards";
export const rulesDir = "infra/prometheus/rules";

/**
 * Every PromQL expression the observability stack evaluates: each target of each committed dashboard
 * (rows' nested panels and template variable queries included) and each rule's `expr`; plus the names
 * the recording rules define, which are series Prometheus makes rather than ones an app exports.
 */
export function allExpressions(repoRoot: string): { expressions: PromExpression[]; recorded: Set<string> } {
  const expressions: PromExpression[] = [];
  const recorded = new Set<string>();
  for (const name of listFiles(join(repoRoot, dashboardsDir), ".json")) {
    const file = `${dashboardsDir}/${name}`;
    const dashboard = JSON.parse(readFileSync(join(repoRoot, file), "utf8")) as Dashboard;
    for (const variable of dashboard.templating?.list ?? []) {
      const query = typeof variable.query === "string" ? variable.query : variable.query?.query;
      const expr = query === undefined ? undefined : variableExpression(query);
      if (expr) expressions.push({ file, where: `variable ${variable.name}`, expr });
    }
    for (const panel of flattenPanels(dashboard.panels ?? [])) {
      for (const target of panel.targets ?? []) {
        if (target.expr) {
          const where = `panel "${panel.title ?? "?"}" › target ${target.refId ?? "?"}`;
          expressions.push({ file, where, expr: target.expr });
        }
      }
    }
  }
  for (const name of listFiles(join(repoRoot, rulesDir), ".yml")) {
    const file = `${rulesDir}/${name}`;
    const content = parse(readFileSync(join(repoRoot, file), "utf8")) as RuleFile | null;
    for (const group of content?.groups ?? []) {
      for (const rule of group.rules ?? []) {
        if (rule.record) recorded.add(rule.record);
        const what = rule.alert ? `alert ${rule.alert}` : `record ${rule.record ?? "?"}`;
        expressions.push({ file, where: `group ${group.name} › ${what}`, expr: String(rule.expr) });
      }
    }
  }
  return { expressions, recorded };
}

/** The PromQL inside a Grafana variable query: `label_values(expr, label)`, `query_result(expr)`, or plain. */
function variableExpression(query: string): string | undefined {
  const trimmed = query.trim();
  const labelValues = /^label_values\((.*),\s*\w+\s*\)$/s.exec(trimmed);
  if (labelValues) return labelValues[1];
  if (/^label_values\(\s*\w+\s*\)$/.test(trimmed) || /^label_names\(/.test(trimmed)) return undefined;
  const queryResult = /^query_result\((.*)\)$/s.exec(trimmed);
  if (queryResult) return queryResult[1];
  return trimmed === "" ? undefined : trimmed;
}

function flattenPanels(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...flattenPanels(panel.panels ?? [])]);
}

function listFiles(dir: string, extension: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(extension))
    .sort();
}

interface Panel {
  title?: string;
  targets?: { expr?: string; refId?: string }[];
  panels?: Panel[];
}
interface Dashboard {
  panels?: Panel[];
  templating?: { list?: { name?: string; query?: string | { query?: string } }[] };
}
interface RuleFile {
  groups?: { name: string; rules?: { record?: string; alert?: string; expr: unknown }[] }[];
}
