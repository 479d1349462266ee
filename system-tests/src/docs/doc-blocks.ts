import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inheritedEnv } from "../harness/env.ts";

/**
 * The docs' shell blocks, read as a person reads them. Every fenced block in a shell language carries
 * a marker on the line above its fence (README.md, "Docs that run"):
 * - `<!-- run: <id> -->`: a test runs the block exactly as written, found by `<file>#<id>`
 *   (`docBlock`, `runDocBlock`); placeholders are shell variables in capitals (`$NEW_PRIMARY_URL`),
 *   which the reader sets first and the test sets in the block's environment;
 * - `<!-- not run: <why> -->`: it cannot run here (a Docker engine, a Kubernetes cluster, MySQL 8.4's
 *   own tools), and the marker says so where the reader sees it.
 * `docs-run.test.ts` fails on a block with neither, on a run block no test names, and on a name
 * that is no block: so a command changed in a doc is run by its test as changed, and a new one is
 * either run or marked.
 */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The fence languages that are commands typed into a shell. */
export const shellLanguages = new Set(["sh", "bash", "shell", "console", "zsh"]);

export interface DocBlock {
  /** Path from the repository root, e.g. `docs/runbook.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  /** The block's text, its list indentation removed, as a reader copies it. */
  text: string;
  marker: { run: string } | { notRun: string } | { malformed: string } | undefined;
}

const markerPattern = /^<!--\s*(run|not run):\s*(.*?)\s*-->$/;

/** Every fenced block of a markdown file, with the marker above it. */
export function readDocBlocks(file: string): DocBlock[] {
  const lines = readFileSync(`${repoRoot}${file}`, "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const open = /^(\s*)(`{3,})(\S*)\s*$/.exec(lines[at] ?? "");
    if (!open) continue;
    const [, indent = "", fence = "", language = ""] = open;
    const body: string[] = [];
    let end = at + 1;
    for (; end < lines.length; end++) {
      const line = lines[end] ?? "";
      if (line.trim() === fence && line.startsWith(indent)) break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({
      file,
      line: at + 1,
      language,
      text: `${body.join("\n")}\n`,
      marker: markerOf((lines[at - 1] ?? "").trim()),
    });
    at = end;
  }
  return blocks;
}

function markerOf(line: string): DocBlock["marker"] {
  if (!line.startsWith("<!--")) return undefined;
  const found = markerPattern.exec(line);
  if (!found) return { malformed: line };
  const [, kind, value = ""] = found;
  return kind === "run" ? { run: value } : { notRun: value };
}

/** The block a test runs, by `<file>#<id>` (`docs/runbook.md#rounds-at-risk`). */
export function docBlock(ref: string): DocBlock {
  const [file = "", id] = ref.split("#");
  const found = readDocBlocks(file).filter(
    (block) => block.marker !== undefined && "run" in block.marker && block.marker.run === id,
  );
  if (found.length !== 1) throw new Error(`${ref}: ${found.length} blocks marked run: ${id}`);
  return found[0] as DocBlock;
}

export interface DocRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a doc's block as a reader pasting it into bash would, except that the first failing command
 * stops it (`-e -o pipefail`): from the repository root (or `cwd`), with PATH and HOME and the
 * placeholders' variables in `env`, nothing else of the test's environment (a block needs what its
 * doc says to set, no more).
 */
export function runDocBlock(
  ref: string,
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; stdin?: string } = {},
): Promise<DocRun> {
  const block = docBlock(ref);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", block.text], {
      cwd: options.cwd ?? repoRoot,
      env: { ...inheritedEnv(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${ref} ran past ${options.timeoutMs} ms\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A block that ends before reading its input closes the pipe: that is no failure of the block.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
  });
}

/**
 * Starts a block that runs until it is stopped (`npm start`), in a process group of its own, as a
 * terminal runs it: `stop()` sends SIGINT to the whole group, as Ctrl-C does, and waits for the exit.
 */
export function startDocBlock(ref: string, options: { env?: Record<string, string>; cwd?: string } = {}) {
  const block = docBlock(ref);
  const child: ChildProcessWithoutNullStreams = spawn("bash", ["-e", "-o", "pipefail", "-c", block.text], {
    cwd: options.cwd ?? repoRoot,
    env: { ...inheritedEnv(), ...options.env },
    detached: true,
  });
  let output = "";
  const take = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    output: () => output,
    exited,
    async stop(timeoutMs = 30_000): Promise<number | null> {
      const signal = (name: NodeJS.Signals) => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, name);
        } catch {
          // The group has already gone.
        }
      };
      if (child.exitCode === null && child.signalCode === null) signal("SIGINT");
      const timer = setTimeout(() => signal("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs a block that must succeed; its output on failure names the block. */
export async function runDocBlockOk(ref: string, options: Parameters<typeof runDocBlock>[1] = {}) {
  const ran = await runDocBlock(ref, options);
  if (ran.code !== 0)
    throw new Error(`${ref} exited ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`);
  return ran;
}
