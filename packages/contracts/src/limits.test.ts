import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { identifier, text, textOfBytes } from "./fields.ts";
import { codePointLength, cutToCodePoints, isIdWithin, type Limit, limits } from "./limits.ts";
import { limitsTable, withLimitsTable } from "./limits-table.ts";
import { bytesOf, stringOf, type Width, widths } from "./testing/limit-strings.ts";

const decisions = new URL("../../../docs/contract-decisions.md", import.meta.url);
const all = Object.entries(limits as Record<string, Limit>);
const inCodePoints = all.filter(([, limit]) => limit.unit === "code points");

/** The limits of ids (`identifier`): every other limit in code points is a text (`text`). */
const idLimits = {
  userId: true,
  roundId: true,
  providerTxId: true,
  closeTxId: true,
  game: true,
  provider: true,
  platform: true,
  sessionToken: true,
  userToken: true,
  tenantPublicKey: true,
  adjustmentReference: true,
};

describe("limits.ts", () => {
  it("docs/contract-decisions.md lists every limit exactly as limits.ts defines it (run `pnpm limits:table` after a change)", () => {
    const doc = readFileSync(decisions, "utf8");
    expect(withLimitsTable(doc)).toBe(doc);
    expect(limitsTable().split("\n")).toHaveLength(all.length + 4);
  });

  it("each limit has a unit, a range, where it is checked and why", () => {
    for (const [name, limit] of all) {
      expect({ name, ordered: limit.min <= limit.max, where: limit.where.length > 0 }).toEqual({
        name,
        ordered: true,
        where: true,
      });
      expect(limit.why.length).toBeGreaterThan(10);
    }
  });

  it("codePointLength counts what zod's max counts, never UTF-16 units", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (value) => {
        expect(codePointLength(value)).toBe([...value].length);
      }),
    );
    // A lone surrogate is one, as for zod and as the strict JSON reader's stand-ins count it.
    expect(codePointLength("\ud83d\ud83d\ude00")).toBe(2);
    expect(codePointLength("😀".repeat(65))).toBe(65);
  });

  it("cutToCodePoints keeps at most `max` code points and never splits a character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 50 }), fc.nat(60), (value, max) => {
        const cut = cutToCodePoints(value, max);
        expect(value.startsWith(cut)).toBe(true);
        expect(codePointLength(cut)).toBe(Math.min(max, codePointLength(value)));
        expect(cut.isWellFormed() || !value.isWellFormed()).toBe(true);
      }),
    );
  });

  it("isIdWithin (what a refused close keeps) agrees with identifier (what every entry point takes)", () => {
    for (const [, limit] of inCodePoints.filter(([name]) => name in idLimits))
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: "binary", maxLength: limit.max + 2 }),
            fc.constantFrom(" ", "\t", ""),
            fc.string({ unit: "grapheme", minLength: limit.max - 1, maxLength: limit.max + 1 }),
          ),
          (value) => {
            expect(isIdWithin(limit, value)).toBe(identifier(limit).safeParse(value).success);
          },
        ),
        { numRuns: 50 },
      );
  });
});

/** Holds a limit's schema to its maximum and one past it, in characters of `width`. */
function atTheEdge(
  limit: Limit,
  schema: { safeParse: (value: unknown) => { success: boolean } },
  width: Width,
) {
  fc.assert(
    fc.property(stringOf(width, limit.max), stringOf(width, limit.max + 1), (max, over) => {
      expect(schema.safeParse(max).success).toBe(true);
      expect(schema.safeParse(over)).toMatchObject({
        success: false,
        error: { issues: [{ message: `must be at most ${limit.max} characters` }] },
      });
    }),
    // A 65,536-character value takes a while to draw: the long texts are drawn once.
    { numRuns: limit.max > 1_000 ? 1 : 5 },
  );
}

describe("every limit in code points, at its maximum and one past it", () => {
  for (const width of widths)
    it(`${width} characters: the maximum is taken, one more is refused naming the limit`, () => {
      for (const [name, limit] of inCodePoints) {
        if (limit.max < 6) continue;
        const schema = name in idLimits ? identifier(limit) : text(limit);
        atTheEdge(limit, schema, width);
      }
    });

  it("a URL's limit is in bytes: 2,048 bytes of any width taken, one more refused", () => {
    const schema = textOfBytes(limits.launchReturnUrl);
    for (const width of widths) {
      expect(schema.safeParse(bytesOf(width, limits.launchReturnUrl.max)).success).toBe(true);
      expect(schema.safeParse(bytesOf(width, limits.launchReturnUrl.max + 1))).toMatchObject({
        success: false,
        error: { issues: [{ message: "must be at most 2048 bytes of UTF-8" }] },
      });
    }
  });
});
