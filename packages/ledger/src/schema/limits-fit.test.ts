import { type Limit, limits, utf8BytesMax } from "@wallet/contracts/limits";
import { describe, expect, it } from "vitest";
import { schemaTables } from "../testing/schema-tables.ts";

/** What a column holds at most: bytes for a binary type, characters for a utf8mb4 text type. */
function capacity(sqlType: string): { bytes: number } | { characters: number } {
  const match = /^(varbinary|binary|varchar|char)\((\d+)\)$/.exec(sqlType);
  if (!match) throw new Error(`not a sized string column: ${sqlType}`);
  const size = Number(match[2]);
  return match[1]?.endsWith("binary") ? { bytes: size } : { characters: size };
}

const columnType = (qualified: string): string => {
  const [tableName, columnName] = qualified.split(".");
  const table = schemaTables.find((candidate) => candidate.name === tableName);
  const column = table?.columns.find((candidate) => candidate.name === columnName);
  if (!column) throw new Error(`limits.ts names ${qualified}, which the schema does not have`);
  return column.getSQLType();
};

const stored = Object.entries(limits as Record<string, Limit>).flatMap(([name, limit]) =>
  (limit.stored ?? []).map((where) => ({ name, limit, ...where })),
);

describe("every column that keeps a limited value holds its longest, in characters of 4 bytes", () => {
  it.each(stored)("$name ($limit.max) in $column", ({ limit, column, around = 0 }) => {
    const held = capacity(columnType(column));
    // An id column (VARBINARY) counts bytes: each character may take 4, and the ASCII around it 1.
    // A VARCHAR is utf8mb4 (every table's charset, migrate.ts): it counts characters, of any width.
    if ("bytes" in held) expect(limit.max * utf8BytesMax + around).toBeLessThanOrEqual(held.bytes);
    else expect(limit.max + around).toBeLessThanOrEqual(held.characters);
  });

  it("names only columns the schema has, and each limit in code points that is stored says where", () => {
    expect(stored.length).toBeGreaterThan(30);
    for (const { column } of stored) expect(columnType(column)).toMatch(/\(\d+\)$/);
  });
});
