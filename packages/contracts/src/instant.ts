/**
 * A moment as an operator types it into a tool after an incident: a full ISO 8601 date-time with its
 * zone written out (`2026-11-26T01:49:56Z`, `2026-11-26T02:49:56.250+01:00`). Anything else is
 * refused, not guessed: `new Date("1")` is 2001-01-01, and a time without a zone is read as the
 * machine's local time by one tool and as UTC by another, which moves a failover's point by hours
 * and silently shortens the list of rounds to check.
 */
const instantPattern =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

export const instantExample = "2026-11-26T01:49:56Z";

/** The moment, or why `text` is not one (a phrase to print after the flag's name). */
export function parseInstant(text: string): { instant: Date } | { problem: string } {
  const found = instantPattern.exec(text);
  if (!found) {
    const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/.test(text);
    return {
      problem: zoneless
        ? `${JSON.stringify(text)} has no zone: end it with Z (UTC) or an offset such as +01:00`
        : `${JSON.stringify(text)} is not a full ISO 8601 date-time with a zone, e.g. ${instantExample}`,
    };
  }
  const part = (index: number) => found[index] ?? "";
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((index) => Number(part(index))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [zone, zoneHours, zoneMinutes] = [part(8), Number(part(10)), Number(part(11))];
  const offsetMinutes = zone === "Z" ? 0 : (part(9) === "-" ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  const local = Date.UTC(y, mo - 1, d, h, mi, s, Number(part(7).padEnd(3, "0").slice(0, 3)));
  // Date.UTC rolls 2026-02-30 over into March and 24:00 into the next day: a date it had to move is
  // no date.
  const check = new Date(local);
  const real =
    check.getUTCFullYear() === y &&
    check.getUTCMonth() === mo - 1 &&
    check.getUTCDate() === d &&
    check.getUTCHours() === h &&
    check.getUTCMinutes() === mi &&
    check.getUTCSeconds() === s &&
    zoneHours <= 23 &&
    zoneMinutes <= 59;
  if (!real) return { problem: `${JSON.stringify(text)} is no such date or time` };
  return { instant: new Date(local - offsetMinutes * 60_000) };
}
