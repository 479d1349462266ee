import { type Limit, limits } from "./limits.ts";

/** Where the table sits in docs/contract-decisions.md: between these two lines, nothing else. */
export const limitsTableMarkers = {
  begin: "<!-- limits table: generated from packages/contracts/src/limits.ts by `pnpm limits:table` -->",
  end: "<!-- end of the limits table -->",
} as const;

const number = (value: number) => value.toLocaleString("en-US");

function range(limit: Limit): string {
  if (limit.min === limit.max) return `exactly ${number(limit.max)}`;
  if (limit.min === -limit.max) return `±${number(limit.max)}`;
  return `${number(limit.min)} to ${number(limit.max)}`;
}

function kept(limit: Limit): string {
  if (!limit.stored) return "";
  return limit.stored
    .map(({ column, around }) => `\`${column}\`${around ? ` (+${around} ASCII)` : ""}`)
    .join(", ");
}

/** docs/contract-decisions.md's limits table, one row per limit of `limits.ts`, in its order. */
export function limitsTable(): string {
  const rows = Object.entries(limits as Record<string, Limit>).map(([key, limit]) =>
    [
      `${limit.name} (\`${key}\`)`,
      limit.unit,
      range(limit),
      limit.format ?? "",
      limit.where,
      limit.why,
      kept(limit),
    ]
      .map((cell) => cell.replaceAll("|", "\\|"))
      .join(" | "),
  );
  return [
    limitsTableMarkers.begin,
    "| limit | counted in | range | shape | checked at | why | kept in (holds the longest in characters of 4 bytes) |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
    limitsTableMarkers.end,
  ].join("\n");
}

/** `text` with its limits table replaced by `limitsTable()`; undefined when it has no table. */
export function withLimitsTable(text: string): string | undefined {
  const begin = text.indexOf(limitsTableMarkers.begin);
  const end = text.indexOf(limitsTableMarkers.end);
  if (begin < 0 || end < begin) return undefined;
  return `${text.slice(0, begin)}${limitsTable()}${text.slice(end + limitsTableMarkers.end.length)}`;
}
