import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import ts from "typescript";
import * as schema from "../schema/index.ts";
import { operatorKind } from "./census-raw.ts";

/**
 * drizzle's query builder in the product's source, for the census (`census.ts`): each chain
 * (`db.select(…).from(t).where(…).for("update")`, `.insert(t)…`, `.update(t)…`, `.delete(t)…`) and
 * each `db.transaction(…)`. drizzle writes them in lower case, identifiers backquoted
 * (`select … from \`outbox\` where … for update skip locked`); a chain is known by its verb, its
 * tables and the clauses it uses: what `statementKey` reads back from a captured statement.
 */
export interface BuilderChain {
  node: ts.Node;
  key: StatementKey;
}

export interface StatementKey {
  /** `select`, `select distinct`, `insert`, `insert ignore`, `update`, `delete`. */
  verb: string;
  /** The SQL name of its table (`?` where the source does not say which). */
  table: string;
  /** `left join wallets`, … in order. */
  joins: string[];
  /** The clauses after the table, in the order SQL writes them. */
  clauses: string[];
  /**
   * Builder sites: the columns the chain always names (its fields, conditions, order, `set`), by
   * their SQL names; a captured statement with the key must name them all. Those only under a
   * condition (`after ? … : …`, `x && …`) are left out: each branch is a statement of its own.
   */
  columns?: string[];
}

/** The clauses of each verb, in drizzle's (and SQL's) order, and the methods that add them. */
const clauseOrder = [
  "set",
  "values",
  "where",
  "group by",
  "having",
  "order by",
  "limit",
  "offset",
  "on duplicate key update",
  "for update",
  "for share",
  "skip locked",
  "nowait",
] as const;
const methodClauses: Record<string, string> = {
  where: "where",
  groupBy: "group by",
  having: "having",
  orderBy: "order by",
  limit: "limit",
  offset: "offset",
  onDuplicateKeyUpdate: "on duplicate key update",
  set: "set",
  values: "values",
};
const joinKinds: Record<string, string> = {
  leftJoin: "left join",
  innerJoin: "inner join",
  rightJoin: "right join",
  fullJoin: "full join",
  crossJoin: "cross join",
};
const conditional = [
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
];
const verbs: Record<string, string> = {
  select: "select",
  selectDistinct: "select distinct",
  insert: "insert",
  update: "update",
  delete: "delete",
};

/** One line: `select outbox [left join wallets] where, order by, limit, for update, skip locked`. */
export function describeKey(key: StatementKey): string {
  return [key.verb, key.table, ...key.joins, key.clauses.join(", ")].filter(Boolean).join(" ");
}

/**
 * Whether a sent statement's key is a site's: with `named` (the statement's identifiers), only if it
 * names every column the site always does; `cut` (the log kept only its beginning), its joins and
 * clauses need only begin the site's.
 */
export function sameKey(
  site: StatementKey,
  sent: StatementKey,
  named?: ReadonlySet<string>,
  cut = false,
): boolean {
  const begins = (whole: string[], part: string[], same: (a: string, b: string) => boolean) =>
    (cut ? part.length <= whole.length : part.length === whole.length) &&
    part.every((item, index) => same(whole[index] ?? "", item));
  return (
    (named === undefined || (site.columns ?? []).every((column) => named.has(column))) &&
    site.verb === sent.verb &&
    (site.table === "?" || site.table === sent.table) &&
    begins(site.joins, sent.joins, (join, other) => join === other || join.endsWith(" ?")) &&
    begins(site.clauses, sent.clauses, (clause, other) => clause === other)
  );
}

/**
 * Each table's columns, by property (`publishedAt`) to SQL name (`published_at`). The column helpers
 * of `schema/columns.ts` take their name as a plain string, so a column's type does not carry it
 * (its table's name it does): the schema itself says.
 */
const columnsByTable = new Map(
  (Object.values(schema) as unknown[])
    .filter((value): value is Table => is(value, Table))
    .map((table) => [
      getTableName(table),
      new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name])),
    ]),
);

/** Every builder chain and transaction in `file`. */
export function builderChains(file: ts.SourceFile, checker: ts.TypeChecker): BuilderChain[] {
  const found: BuilderChain[] = [];
  const isDrizzle = (node: ts.Expression) =>
    /^MySql/.test(checker.getTypeAtLocation(node).getSymbol()?.getName() ?? "");
  // A drizzle table's type carries its SQL name (`MySqlTableWithColumns<{ name: "outbox"; … }>`,
  // as `table._.name`), whatever the variable holding it is called; a table passed as a plain
  // `MySqlTable` has none (`?`: any table).
  const property = (type: ts.Type | undefined, name: string, at: ts.Node) => {
    const symbol = type?.getProperty(name);
    return symbol ? checker.getTypeOfSymbolAtLocation(symbol, at) : undefined;
  };
  const sqlName = (type: ts.Type | undefined, at: ts.Node) => {
    const name = property(property(type, "_", at), "name", at);
    return name?.isStringLiteral() ? name.value : undefined;
  };
  const tableName = (expression: ts.Expression | undefined): string =>
    (expression && sqlName(checker.getTypeAtLocation(expression), expression)) ?? "?";
  // `table.column`: its table's SQL name from its type (`_.tableName`), the column's from the schema.
  const columnName = (expression: ts.Expression): string | undefined => {
    if (!ts.isPropertyAccessExpression(expression)) return undefined;
    const table = property(
      property(checker.getTypeAtLocation(expression), "_", expression),
      "tableName",
      expression,
    );
    return table?.isStringLiteral() ? columnsByTable.get(table.value)?.get(expression.name.text) : undefined;
  };
  /** The columns `node` names on every path through it: not under `a ? … : …`, `a && …`, `a ?? …`. */
  const namedColumns = (node: ts.Node, into: Set<string>): void => {
    if (ts.isConditionalExpression(node)) {
      namedColumns(node.condition, into);
      return;
    }
    if (ts.isBinaryExpression(node) && conditional.includes(operatorKind(node))) {
      namedColumns(node.left, into);
      return;
    }
    if (ts.isPropertyAccessExpression(node)) {
      const column = columnName(node);
      if (column) into.add(column);
    }
    ts.forEachChild(node, (child) => namedColumns(child, into));
  };
  /** The columns an object of `set` (or of `onDuplicateKeyUpdate`'s `set`) writes: its keys. */
  const setColumns = (
    object: ts.Expression | undefined,
    table: ts.Expression | undefined,
    into: Set<string>,
  ) => {
    if (!object || !ts.isObjectLiteralExpression(object)) return;
    const columns = columnsByTable.get(tableName(table));
    for (const assignment of object.properties) {
      const key = assignment.name && ts.isIdentifier(assignment.name) ? assignment.name.text : undefined;
      const column = key && columns?.get(key);
      if (column) into.add(column);
    }
  };

  const visit = (node: ts.Node): void => {
    ts.forEachChild(node, visit);
    if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return;
    const method = node.expression.name.text;
    if (method === "transaction" && isDrizzle(node.expression.expression)) {
      found.push({ node, key: { verb: "transaction", table: "", joins: [], clauses: [] } });
      return;
    }
    const verb = verbs[method];
    if (!verb || !isDrizzle(node)) return;
    const key: StatementKey = { verb, table: "?", joins: [], clauses: [] };
    let table = verb === "select" || verb === "select distinct" ? undefined : node.arguments[0];
    key.table = tableName(table);
    const clauses = new Set<string>();
    const columns = new Set<string>();
    // An insert names every column of its table whatever its values say: its values add none.
    if (verb === "select" || verb === "select distinct")
      for (const field of node.arguments) namedColumns(field, columns);
    // Up the chain: `call.method(…)` whose result is called again.
    let call: ts.CallExpression = node;
    for (;;) {
      const access = call.parent;
      if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== call) break;
      const next = access.parent;
      if (!next || !ts.isCallExpression(next) || next.expression !== access) break;
      const name = access.name.text;
      const [first, second] = next.arguments;
      if (name === "from") {
        table = first;
        key.table = tableName(first);
      } else if (name === "ignore") key.verb = `${key.verb} ignore`;
      else if (joinKinds[name]) {
        key.joins.push(`${joinKinds[name]} ${tableName(first)}`);
        if (second) namedColumns(second, columns);
      } else if (methodClauses[name]) {
        clauses.add(methodClauses[name]);
        if (name === "set") setColumns(first, table, columns);
        else if (name === "onDuplicateKeyUpdate" && first && ts.isObjectLiteralExpression(first))
          for (const option of first.properties)
            if (ts.isPropertyAssignment(option)) setColumns(option.initializer, table, columns);
        if (name !== "values") for (const argument of next.arguments) namedColumns(argument, columns);
      } else if (name === "for") {
        const mode = first && ts.isStringLiteral(first) ? first.text : "update";
        clauses.add(`for ${mode}`);
        const options = second && ts.isObjectLiteralExpression(second) ? second.properties : [];
        for (const option of options) {
          const optionName = option.name && ts.isIdentifier(option.name) ? option.name.text : "";
          if (optionName === "skipLocked") clauses.add("skip locked");
          if (optionName === "noWait") clauses.add("nowait");
        }
      }
      call = next;
    }
    // drizzle writes `insert … values` and `update … set` always: their clauses are the rest.
    clauses.delete("values");
    clauses.delete("set");
    key.clauses = clauseOrder.filter((clause) => clauses.has(clause));
    key.columns = [...columns].sort();
    found.push({ node, key });
  };
  visit(file);
  return found;
}

/**
 * The key of a statement drizzle wrote, read from its shape (`statementShape`): the same verbs,
 * tables and clauses as `builderChains` reads from the source. Parenthesized parts (subqueries, value
 * lists, function arguments) are set aside first, so only the statement's own clauses count.
 * Undefined for what drizzle did not write (upper-case raw SQL).
 */
export function statementKey(shape: string): StatementKey | undefined {
  let flat = shape;
  for (let before = ""; before !== flat; ) {
    before = flat;
    flat = flat.replace(/\([^()]*\)/g, "()");
  }
  const head =
    /^(select distinct|select) .*? from `(\w+)`/.exec(flat) ??
    /^(insert ignore|insert) into `(\w+)`/.exec(flat) ??
    /^(update) `(\w+)` set /.exec(flat) ??
    /^(delete) from `(\w+)`/.exec(flat);
  if (!head) return undefined;
  const [, verb = "", table = ""] = head;
  const rest = flat.slice(head[0].length);
  const joins = [...rest.matchAll(/ (left join|inner join|right join|full join|cross join) `(\w+)`/g)].map(
    ([, kind, joined]) => `${kind} ${joined}`,
  );
  const present = (clause: string) =>
    clause === "values" || clause === "set" ? false : new RegExp(` ${clause}(?: |$)`).test(rest);
  return { verb, table, joins, clauses: clauseOrder.filter(present) };
}
