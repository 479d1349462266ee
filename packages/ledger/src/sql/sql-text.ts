/**
 * Statement text is built once per shape and kept: a batch of n rows reuses the text made for the
 * first batch of n (placeholders only; mysql2 binds the values). Nothing here sees a value.
 */
const cache = new Map<string, string>();

export function once(name: string, count: number, build: (count: number) => string): string {
  const key = `${name}:${count}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = build(count);
    cache.set(key, text);
  }
  return text;
}

/** `?, ?, …`: `count` placeholders. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => "?").join(", ");
}

/** `(?, ?), (?, ?), …`: `count` tuples of `width` placeholders. */
export function tuples(count: number, width: number): string {
  const tuple = `(${placeholders(width)})`;
  return Array.from({ length: count }, () => tuple).join(", ");
}

/** `CASE id WHEN ? THEN ? … END` for `count` rows. */
export function caseById(count: number, column = "id"): string {
  return `CASE ${column} ${Array.from({ length: count }, () => "WHEN ? THEN ?").join(" ")} END`;
}

/** `INSERT INTO table (columns) VALUES tuple, …` for `count` rows (placeholders, unless `tuple` says otherwise). */
export function insertText(
  table: string,
  columns: string[],
  count: number,
  tuple = `(${placeholders(columns.length)})`,
): string {
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: count }, () => tuple).join(", ")}`;
}
