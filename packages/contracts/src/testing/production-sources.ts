import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Every production source file of the apps and packages, relative to the repository root and
 * sorted: tests (`*.test.ts`) and test helpers (`testing/`) left out. The checks that read the code
 * itself (secrets compared in constant time, every error code answered somewhere) walk these files.
 */
export function productionSources(repoRoot: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "testing" && entry.name !== "node_modules") walk(path);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(path);
    }
  };
  for (const group of ["apps", "packages"]) {
    for (const pkg of readdirSync(join(repoRoot, group))) walk(join(repoRoot, group, pkg, "src"));
  }
  return files.map((file) => relative(repoRoot, file)).sort();
}
