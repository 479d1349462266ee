import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// A doc that names a file that moved sends its reader nowhere: every path a Markdown file quotes
// (`apps/...`, `src/...`) must exist, read from the file's own folder or from the repository root.
const repoRoot = resolve(import.meta.dirname, "../..");
const skipped = new Set(["node_modules", ".git", ".turbo", "results", "reports"]);
/** Written by a run, not checked in (`.gitignore`). */
const generated = ["bench/results/", "faults/results/"];
const quotedPath = /`((?:apps|packages|system-tests|faults|bench|infra|docs|scripts|src)\/[\w./-]+)`/g;

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

describe("paths quoted in the docs", () => {
  it("all exist", () => {
    const missing: string[] = [];
    for (const file of markdownFiles(repoRoot)) {
      for (const [, quoted] of readFileSync(file, "utf8").matchAll(quotedPath)) {
        const path = quoted?.replace(/[.:,]+$/, "") ?? "";
        if (generated.some((folder) => path.startsWith(folder))) continue;
        if (existsSync(join(dirname(file), path)) || existsSync(join(repoRoot, path))) continue;
        missing.push(`${relative(repoRoot, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
