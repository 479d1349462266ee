/**
 * JSON.stringify that writes bigint as a plain JSON integer. Money leaves the service as bigint
 * millis; JSON.stringify would throw on them and Number() would lose precision past 2^53.
 */
export function stringifyJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((item) => stringifyJson(item ?? null)).join(",")}]`;
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      const fields: string[] = [];
      for (const [key, field] of Object.entries(value)) {
        if (field !== undefined) fields.push(`${JSON.stringify(key)}:${stringifyJson(field)}`);
      }
      return `{${fields.join(",")}}`;
    }
    default:
      return "null";
  }
}
