import { describe, expect, it } from "vitest";
import { runDocBlockOk } from "./doc-blocks.ts";

// The docs' "Test" blocks, run as written: each must pass and run the tests it names.
describe("the test commands the docs give", () => {
  it.each([
    ["infra/README.md#infra-tests", /Test Files\s+\d+ passed/],
    ["infra/k8s/README.md#k8s-tests", /Test Files\s+1 passed/],
  ])(
    "%s passes",
    async (ref, summary) => {
      const ran = await runDocBlockOk(ref, { timeoutMs: 170_000, env: { NO_COLOR: "1", FORCE_COLOR: "0" } });
      expect(`${ran.stdout}${ran.stderr}`).toMatch(summary);
      expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/\bfailed\b/);
    },
    180_000,
  );
});
