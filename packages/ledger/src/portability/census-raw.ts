import ts from "typescript";

/**
 * Raw SQL text in the product's source, for the census (`census.ts`): what a string, a template or a
 * drizzle `sql` template sends as it is written. `${…}` that TypeScript cannot read as one constant
 * becomes `wildcard`, matched by anything (`census-coverage.ts`).
 */
export const wildcard = "\u0001";

export interface RawText {
  node: ts.Node;
  /** The text, `wildcard` where an interpolation is not a constant. */
  text: string;
  /** String literals inside the interpolations (a tuple, a clause): not statements, but SQL the rules read. */
  parts: string[];
}

/**
 * A string is SQL when it is sent as one (the first argument of `.query(`/`.execute(`/`sql.raw(`), or
 * when it reads as one: it opens with a statement or clause keyword, or holds a statement's core
 * (`SELECT … FROM`, `INSERT INTO`, `UPDATE t SET`, `DELETE FROM`). Upper case only: the product
 * writes its SQL in capitals, and drizzle's own is lower case (`census-builder.ts` reads that).
 */
const opensAsSql =
  /^\s*(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|TRUNCATE|RENAME|SET|START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|USE|SHOW|GRANT|REVOKE|FLUSH|LOCK|UNLOCK|WITH|EXPLAIN|FROM|WHERE|JOIN|LEFT JOIN|INNER JOIN|ON DUPLICATE KEY UPDATE|ORDER BY|GROUP BY|HAVING|LIMIT|UNION|VALUES|CASE|FOR UPDATE)\b/;
const holdsSql = /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b/;

/** A statement of one word: a privilege's or a verb's name alone (`"SELECT"`) is not one. */
const wholeWordStatements = /^\s*(?:COMMIT|ROLLBACK|BEGIN)\s*;?\s*$/;

export function readsAsSql(text: string): boolean {
  if (/^\s*[A-Z]+\s*$/.test(text)) return wholeWordStatements.test(text);
  return opensAsSql.test(text) || holdsSql.test(text);
}

/** Calls whose `sql\`…\`` argument declares the schema (a default, a CHECK): never sent at run time. */
const declarations = new Set(["default", "check", "generatedAlwaysAs", "$default", "$onUpdate"]);

/** Every raw SQL text in `file`. */
export function rawTexts(file: ts.SourceFile, checker: ts.TypeChecker): RawText[] {
  const found: RawText[] = [];
  const constant = (expression: ts.Expression): string | undefined => {
    const type = checker.getTypeAtLocation(expression);
    if (type.isStringLiteral()) return type.value;
    if (type.isNumberLiteral()) return String(type.value);
    return undefined;
  };

  /** A plain string expression's text: literals as written, constants inlined, the rest `wildcard`. */
  const plain = (node: ts.Expression, parts: string[]): string => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isParenthesizedExpression(node)) return plain(node.expression, parts);
    if (ts.isTemplateExpression(node))
      return (
        node.head.text +
        node.templateSpans.map((span) => interpolated(span.expression, parts) + span.literal.text).join("")
      );
    if (isConcatenation(node)) return plain(node.left, parts) + plain(node.right, parts);
    return interpolated(node, parts);
  };
  const interpolated = (expression: ts.Expression, parts: string[]): string => {
    const value = constant(expression);
    if (value !== undefined) return value;
    collectLiterals(expression, parts);
    return wildcard;
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === "sql") {
      if (!isDeclaration(node)) {
        const parts: string[] = [];
        const template = node.template;
        const text = ts.isNoSubstitutionTemplateLiteral(template)
          ? template.text
          : template.head.text +
            template.templateSpans
              .map((span) => {
                collectLiterals(span.expression, parts);
                return wildcard + span.literal.text;
              })
              .join("");
        // `sql\`, \`` and the like join other fragments: no SQL of their own.
        if (/[A-Za-z]/.test(text)) found.push({ node, text, parts });
      }
      if (ts.isTemplateExpression(node.template))
        for (const span of node.template.templateSpans) visit(span.expression);
      return;
    }
    // An object's key (`{ "INSERT INTO": "insert" }`) names something; it is not sent.
    if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name)) {
      visit(node.initializer);
      return;
    }
    if (isStringExpression(node) && !isConcatenation(node.parent)) {
      const parts: string[] = [];
      const text = plain(node, parts);
      const sql = sentAsSql(node) ? /[A-Za-z]/.test(text) : readsAsSql(text) && !comparedWith(node);
      if (sql) found.push({ node, text, parts });
      for (const inner of interpolations(node)) visit(inner);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * A binary expression's operator. Read through a rename: the secrets check (faults/src/security/
 * constant-time.test.ts) watches the name `operatorToken` (the operator API's token) in comparisons.
 */
export function operatorKind(node: ts.BinaryExpression): ts.SyntaxKind {
  const { operatorToken: operator } = node;
  return operator.kind;
}

function isConcatenation(node: ts.Node): node is ts.BinaryExpression {
  return (
    ts.isBinaryExpression(node) &&
    operatorKind(node) === ts.SyntaxKind.PlusToken &&
    (hasLiteral(node.left) || hasLiteral(node.right))
  );
}

function hasLiteral(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return hasLiteral(node.expression);
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    isConcatenation(node)
  );
}

function isStringExpression(node: ts.Node): node is ts.Expression {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    isConcatenation(node)
  );
}

/** The expressions inside a string expression that are not its literal text. */
function interpolations(node: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(node)) return interpolations(node.expression);
  if (ts.isTemplateExpression(node)) return node.templateSpans.map((span) => span.expression);
  if (isConcatenation(node))
    return [node.left, node.right].flatMap((side) => (hasLiteral(side) ? interpolations(side) : [side]));
  return [];
}

/** Methods that read a string against text (`sql.startsWith("DROP TRIGGER")`): its argument is not sent. */
const textTests = new Set([
  "startsWith",
  "endsWith",
  "includes",
  "indexOf",
  "lastIndexOf",
  "split",
  "match",
  "search",
  "test",
]);
const comparisons = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** A string compared with another (an argument of `startsWith`, an operand of `===`, what `replace` looks for). */
function comparedWith(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isBinaryExpression(parent)) return comparisons.has(operatorKind(parent));
  if (!ts.isCallExpression(parent) || !ts.isPropertyAccessExpression(parent.expression)) return false;
  const method = parent.expression.name.text;
  if (method === "replace" || method === "replaceAll") return parent.arguments[0] === node;
  return textTests.has(method) && parent.arguments.includes(node as ts.Expression);
}

/** The first argument of `.query(`, `.execute(` or `sql.raw(`. */
function sentAsSql(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== node) return false;
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ["query", "execute", "raw"].includes(callee.name.text);
}

function isDeclaration(node: ts.TaggedTemplateExpression): boolean {
  const call = node.parent;
  if (!ts.isCallExpression(call)) return false;
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isIdentifier(callee)
      ? callee.text
      : "";
  return declarations.has(name);
}

/** Every string literal under `node`, for the rules (a `(?, ?, CURRENT_TIMESTAMP(3))` tuple built apart). */
function collectLiterals(node: ts.Node, into: string[]): void {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) into.push(node.text);
  else if (ts.isTemplateExpression(node)) {
    into.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
    for (const span of node.templateSpans) collectLiterals(span.expression, into);
  } else ts.forEachChild(node, (child) => collectLiterals(child, into));
}
