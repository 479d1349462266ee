import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `pnpm check:imports` runs dependency-cruiser with `.dependency-cruiser.cjs`. This proves the rules
// catch what they name, on a small tree of its own, and that the real tree keeps them.
const repoRoot = resolve(import.meta.dirname, "../..");
const depcruise = join(repoRoot, "node_modules/.bin/depcruise");
const config = join(repoRoot, ".dependency-cruiser.cjs");

function cruise(cwd: string, folders: string[]) {
  const run = spawnSync(depcruise, [...folders, "--config", config, "--output-type", "err"], {
    cwd,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const fixture = mkdtempSync(join(tmpdir(), "import-graph-"));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), text);
}

// dependency-cruiser reads the whole repository (over 750 modules): seconds, more on a loaded machine.
describe("the import-graph rules", { timeout: 60_000 }, () => {
  it("the repository keeps them: no circle, no package importing an app or a test harness", () => {
    const { status, output } = cruise(repoRoot, [
      "apps",
      "packages",
      "bench",
      "faults",
      "system-tests",
      "infra",
    ]);
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  });

  it("a circle, a package importing an app, an app importing another, product code importing a harness or a testing helper, an unresolvable import: each fails", () => {
    copyFileSync(join(repoRoot, "tsconfig.base.json"), join(fixture, "tsconfig.base.json"));
    write("packages/lib/src/a.ts", 'import { b } from "./b.ts";\nexport const a = () => b;\n');
    write("packages/lib/src/b.ts", 'import { a } from "./a.ts";\nexport const b = () => a;\n');
    write(
      "packages/lib/src/uses-app.ts",
      'import { main } from "../../../apps/one/src/main.ts";\nexport { main };\n',
    );
    write(
      "apps/one/src/main.ts",
      'import { spawnIt } from "../../../faults/src/harness.ts";\nexport const main = spawnIt;\n',
    );
    write("apps/one/src/helper-user.ts", 'import { seed } from "./testing/seed.ts";\nexport { seed };\n');
    write("apps/one/src/testing/seed.ts", "export const seed = 1;\n");
    write("apps/one/src/seed.test.ts", 'import { seed } from "./testing/seed.ts";\nexport { seed };\n');
    write("faults/src/harness.ts", "export const spawnIt = 1;\n");
    write("apps/two/src/main.ts", 'import { main } from "../../one/src/main.ts";\nexport { main };\n');
    write("apps/two/src/missing.ts", 'import { gone } from "./gone.ts";\nexport { gone };\n');
    const { status, output } = cruise(fixture, ["apps", "packages", "faults"]);
    expect(status).not.toBe(0);
    expect(output).toContain("no-circular: packages/lib/src/a.ts");
    expect(output).toContain("packages-below-apps: packages/lib/src/uses-app.ts → apps/one/src/main.ts");
    expect(output).toContain("no-test-harness-in-product: apps/one/src/main.ts → faults/src/harness.ts");
    expect(output).toContain(
      "testing-helpers-only-in-tests: apps/one/src/helper-user.ts → apps/one/src/testing/seed.ts",
    );
    expect(output).toContain("apps-independent: apps/two/src/main.ts → apps/one/src/main.ts");
    expect(output).toContain("no-unresolvable: apps/two/src/missing.ts → ./gone.ts");
    // A test may use a testing helper.
    expect(output).not.toContain("apps/one/src/seed.test.ts →");
  });
});
