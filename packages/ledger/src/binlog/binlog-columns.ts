import type { BinlogValue } from "./decoded-rows.ts";

/** A row of the binary log by column name: `@n` is the table's n-th column in ordinal order. */
export type NamedRow = Record<string, BinlogValue | undefined>;

export function namedRow(values: BinlogValue[], columns: readonly string[]): NamedRow {
  const row: NamedRow = {};
  columns.forEach((name, at) => {
    row[name] = values[at];
  });
  return row;
}

/** A string column (the ids are VARBINARY holding UTF-8), or null. */
export function textOf(value: BinlogValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  return Buffer.isBuffer(value) ? value.toString("utf8") : value;
}

export function bigintOf(value: BinlogValue | undefined): bigint {
  const text = textOf(value);
  if (text === null || !/^-?\d+$/.test(text)) throw new Error(`not an integer in the binary log: ${text}`);
  return BigInt(text);
}

export function numberOf(value: BinlogValue | undefined): number {
  return Number(bigintOf(value));
}

/** A DATETIME(3) as printed (`'2026-11-28 02:38:44.474'`): UTC, as every connection of the wallet writes it. */
export function dateOf(value: BinlogValue | undefined): Date | null {
  const text = textOf(value);
  if (text === null) return null;
  const date = new Date(`${text.replace(" ", "T")}Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`not a DATETIME in the binary log: ${text}`);
  return date;
}
