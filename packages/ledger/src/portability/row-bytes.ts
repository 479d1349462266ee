import { getTableConfig, type MySqlTable } from "drizzle-orm/mysql-core";

/**
 * What a table's row takes at most, from its schema: stored (the row image a binary log or TiDB's
 * entry carries) and as the values of an INSERT (the statement's text). A string column of n bytes
 * is at most 2n + 2 as a quoted literal (mysql2 escapes `'`, `\`, `"` and control bytes, each one
 * byte, with a backslash); a number at most 20 characters; a date 25. A column with no width of its
 * own (MEDIUMTEXT, MEDIUMBLOB) takes the bound the product keeps it to, from `textBounds`; one missing
 * is an error, so a new unbounded column cannot slip past the budgets.
 */
export type TextBounds = Record<string, number>;

const numberLiteral = 20;
const dateLiteral = 25;
/** ", " between two values. */
const separator = 2;

/** Stored bytes of a column of this SQL type with a width of its own; undefined for one without. */
function storedBytes(sqlType: string): number | undefined {
  const width = /\((\d+)/.exec(sqlType)?.[1];
  if (/^(var)?binary\(/i.test(sqlType)) return Number(width);
  // utf8mb4: four bytes a character at most, and a length byte or two.
  if (/^(var)?char\(/i.test(sqlType)) return 4 * Number(width) + 2;
  if (/^bigint/i.test(sqlType)) return 8;
  if (/^int/i.test(sqlType)) return 4;
  if (/^smallint/i.test(sqlType)) return 2;
  if (/^tinyint|^boolean/i.test(sqlType)) return 1;
  if (/^(datetime|timestamp)/i.test(sqlType)) return 8;
  if (/^date$/i.test(sqlType)) return 3;
  return undefined;
}

const isNumber = (sqlType: string) => /^(big|small|tiny)?int|^boolean/i.test(sqlType);
const isDate = (sqlType: string) => /^(datetime|timestamp|date)/i.test(sqlType);

function columnsOf(table: MySqlTable, bounds: TextBounds) {
  const { name, columns } = getTableConfig(table);
  return columns.map((column) => {
    const sqlType = column.getSQLType();
    const stored = storedBytes(sqlType) ?? bounds[`${name}.${column.name}`];
    if (stored === undefined) throw new Error(`${name}.${column.name} (${sqlType}) has no size bound`);
    const literal = isNumber(sqlType) ? numberLiteral : isDate(sqlType) ? dateLiteral : 2 + 2 * stored;
    return { stored, literal };
  });
}

/** The most one row of `table` stores: its image in a binary-log event or a TiDB entry. */
export function rowImageBytes(table: MySqlTable, bounds: TextBounds = {}): number {
  return columnsOf(table, bounds).reduce((sum, column) => sum + column.stored, 0);
}

/** The most one row of `table` takes as an INSERT's value tuple, `(…, …)`, with the comma before the next. */
export function rowLiteralBytes(table: MySqlTable, bounds: TextBounds = {}): number {
  const columns = columnsOf(table, bounds);
  return 2 + separator + columns.reduce((sum, column) => sum + column.literal + separator, 0);
}
