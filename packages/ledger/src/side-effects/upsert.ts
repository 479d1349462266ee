import { insertText, once, placeholders } from "../sql/sql-text.ts";

/** One statement of a side-effect batch's write round trip: text built once per shape, values bound. */
export interface Statement {
  sql: string;
  values: unknown[];
}

/** A multi-row INSERT of `columns` (snake_case), `rows` given as arrays in that order. */
export function insertRows(table: string, columns: string[], rows: unknown[][]): Statement[] {
  if (rows.length === 0) return [];
  return [
    {
      sql: once(`insert-${table}`, rows.length, (count) => insertText(table, columns, count)),
      values: rows.flat(),
    },
  ];
}

/**
 * One multi-row INSERT whose rows, where their key exists, add their `adding` columns to the stored
 * ones and refresh `updated_at` (the last column, set by the server): counters moved by many rounds
 * in one statement. Callers pass the rows in key order, so two batches touching the same keys lock
 * them in the same order.
 */
export function upsertAdding(
  table: string,
  columns: string[],
  adding: string[],
  rows: unknown[][],
): Statement[] {
  return addingUpsert(table, columns, adding, rows, true);
}

/** `upsertAdding` for a table without `updated_at` (an audit row a late line adds to). */
export function insertAdding(
  table: string,
  columns: string[],
  adding: string[],
  rows: unknown[][],
): Statement[] {
  return addingUpsert(table, columns, adding, rows, false);
}

function addingUpsert(
  table: string,
  columns: string[],
  adding: string[],
  rows: unknown[][],
  touch: boolean,
): Statement[] {
  if (rows.length === 0) return [];
  const names = touch ? [...columns, "updated_at"] : columns;
  const tuple = `(${placeholders(columns.length)}${touch ? ", CURRENT_TIMESTAMP(3)" : ""})`;
  const sums = adding.map((column) => `${column} = ${column} + VALUES(${column})`);
  if (touch) sums.push("updated_at = CURRENT_TIMESTAMP(3)");
  return [
    {
      sql: once(
        `upsert-${table}`,
        rows.length,
        (count) => `${insertText(table, names, count, tuple)} ON DUPLICATE KEY UPDATE ${sums.join(", ")}`,
      ),
      values: rows.flat(),
    },
  ];
}
