/**
 * The database errors the apps logged, counted by error number (or code, for a connection that
 * failed before the server answered): what a failover made the wallet meet, for the classes in
 * `packages/ledger/src/mysql-errors.ts` to be checked against.
 */
export function errorsLogged(lines: string[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const line of lines) {
    const found = /"errno":(\d+)/.exec(line) ?? /"code":"([A-Z_]+)"/.exec(line);
    const key = found?.[1];
    if (key) counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}
