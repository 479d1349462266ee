import { describe, expect, it } from "vitest";
import { parseInstant } from "./instant.ts";

describe("parseInstant: a moment typed after an incident", () => {
  it("takes a full date-time with Z or an offset, to the millisecond", () => {
    expect(parseInstant("2026-11-26T01:49:56Z")).toEqual({ instant: new Date("2026-11-26T01:49:56.000Z") });
    expect(parseInstant("2026-11-26T02:49:56.25+01:00")).toEqual({
      instant: new Date("2026-11-26T01:49:56.250Z"),
    });
    expect(parseInstant("2026-11-25T20:19:56.123456-05:30")).toEqual({
      instant: new Date("2026-11-26T01:49:56.123Z"),
    });
  });

  it("refuses a time without a zone, saying so", () => {
    expect(parseInstant("2026-11-26T01:49:56")).toEqual({
      problem: '"2026-11-26T01:49:56" has no zone: end it with Z (UTC) or an offset such as +01:00',
    });
  });

  it("refuses what Date would guess at: a number, a date alone, a space, no seconds, a day that is not", () => {
    for (const text of ["1", "2026", "2026-11-26", "2026-11-26 01:49:56Z", "2026-11-26T01:49Z", "now", ""])
      expect(parseInstant(text)).toEqual({
        problem: `${JSON.stringify(text)} is not a full ISO 8601 date-time with a zone, e.g. 2026-11-26T01:49:56Z`,
      });
    for (const text of [
      "2026-02-30T00:00:00Z",
      "2026-11-26T24:00:00Z",
      "2026-11-26T01:60:00Z",
      "2026-11-26T01:00:00+24:00",
    ])
      expect(parseInstant(text)).toEqual({ problem: `${JSON.stringify(text)} is no such date or time` });
  });
});
