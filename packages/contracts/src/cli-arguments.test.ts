import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argumentProblem, cliArguments } from "./cli-arguments.ts";
import { limits } from "./limits.ts";
import { stringOf, widths } from "./testing/limit-strings.ts";

describe("the CLIs' arguments, held to the API's limits", () => {
  for (const width of widths)
    it(`--round and --label of ${width} characters: the maximum taken, one more refused naming the limit`, () => {
      for (const [option, schema, limit] of [
        ["--round", cliArguments.round, limits.roundId],
        ["--label", cliArguments.label, limits.tokenLabel],
      ] as const)
        fc.assert(
          fc.property(stringOf(width, limit.max), stringOf(width, limit.max + 1), (max, over) => {
            expect(argumentProblem(option, schema, max)).toBeUndefined();
            expect(argumentProblem(option, schema, over)).toBe(
              `${option}: must be at most ${limit.max} characters`,
            );
          }),
          { numRuns: 5 },
        );
    });

  it("an operator is a positive safe integer; a public id is 12 hex digits; a round is not only whitespace", () => {
    expect(
      argumentProblem("--operator", cliArguments.operator, String(Number.MAX_SAFE_INTEGER)),
    ).toBeUndefined();
    for (const wrong of ["0", "-1", "1.5", "x", "9007199254740992", ""])
      expect(argumentProblem("--operator", cliArguments.operator, wrong)).toBe(
        "--operator: must be a positive integer",
      );
    expect(argumentProblem("public id", cliArguments.publicId, "0123456789ab")).toBeUndefined();
    expect(argumentProblem("public id", cliArguments.publicId, "0123456789abc")).toMatch(
      /^public id: must be/,
    );
    expect(argumentProblem("--round", cliArguments.round, " ")).toBe("--round: must not be only whitespace");
    expect(argumentProblem("--round", cliArguments.round, undefined)).toBeUndefined();
  });
});
