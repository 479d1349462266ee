import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type DocBlock, readDocBlocks, repoRoot, shellLanguages } from "./doc-blocks.ts";

// Every shell block in the docs is run by a test as written, or says in place why it cannot be
// (README.md, "Docs that run"). The blocks are found in every tracked markdown file, not a list of
// them, so a new doc is held to it too.
const tracked = (pattern: string) =>
  execFileSync("git", ["ls-files", pattern], { cwd: repoRoot, encoding: "utf8" }).split("\n").filter(Boolean);
const blocks: DocBlock[] = tracked("*.md").flatMap(readDocBlocks);
const shellBlocks = blocks.filter((block) => shellLanguages.has(block.language));
const where = (block: DocBlock) => `${block.file}:${block.line}`;

/** Every `"<file>.md#<id>"` a test file names: the blocks it runs. */
const refPattern = /["'`]([\w./-]+\.md)#([\w-]+)["'`]/g;
const named = new Map<string, string[]>();
for (const file of tracked("*.ts").filter((path) => /\.test\.ts$/.test(path))) {
  for (const found of readFileSync(`${repoRoot}${file}`, "utf8").matchAll(refPattern)) {
    const ref = `${found[1]}#${found[2]}`;
    named.set(ref, [...(named.get(ref) ?? []), file]);
  }
}
const runRef = (block: DocBlock) =>
  block.marker && "run" in block.marker ? `${block.file}#${block.marker.run}` : undefined;

describe("the docs' shell blocks", () => {
  it("every fence names its language, so no shell block hides as plain text", () => {
    expect(blocks.filter((block) => block.language === "").map(where)).toEqual([]);
  });

  it("each shell block is marked run or not run, with a reason", () => {
    const unmarked = shellBlocks.filter((block) => block.marker === undefined || "malformed" in block.marker);
    expect(unmarked.map((block) => `${where(block)}: ${block.text.split("\n")[0]}`)).toEqual([]);
    const noReason = shellBlocks.filter(
      (block) => block.marker && "notRun" in block.marker && block.marker.notRun.length < 10,
    );
    expect(noReason.map(where)).toEqual([]);
  });

  it("each run block is named by a test, once per file", () => {
    const refs = shellBlocks.map(runRef).filter((ref): ref is string => ref !== undefined);
    expect(refs.filter((ref, at) => refs.indexOf(ref) !== at)).toEqual([]);
    expect(refs.filter((ref) => !named.has(ref))).toEqual([]);
  });

  it("each block a test names exists", () => {
    const refs = new Set(shellBlocks.map(runRef));
    expect([...named].filter(([ref]) => !refs.has(ref)).map(([ref, files]) => `${ref} (${files})`)).toEqual(
      [],
    );
  });

  it("a run block holds no placeholder a shell cannot fill: variables, not <…> or …", () => {
    const unfilled = shellBlocks.filter(
      (block) =>
        runRef(block) !== undefined &&
        /<[a-z][^>]*>|…/i.test(block.text.replace(/^\s*#.*$/gm, "").replace(/\s#\s.*$/gm, "")),
    );
    expect(unfilled.map(where)).toEqual([]);
  });
});
