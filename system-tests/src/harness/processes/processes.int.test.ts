import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { launch } from "./launch.ts";
import { until } from "./readiness.ts";

const fixture = fileURLToPath(new URL("./parent-fixture.ts", import.meta.url));

/** Signal 0 reaches it and it is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * The fixture's parent once its children (one frozen, one with a child of its own) run. With
 * `starters`, started as pnpm starts `pnpm bench` (pnpm → sh → node): through one shell, or two.
 */
async function parentOfThree(options: { exit?: boolean; starters?: 1 | 2 } = {}) {
  let started: { parent: number; pids: number[] } | undefined;
  const node = [process.execPath, "--import", "tsx", fixture, ...(options.exit ? ["exit"] : [])];
  // `setsid`: out of the killed starter's process group, as `pnpm bench` is out of reach of ours.
  const line = node.join(" ");
  const shells = { 1: `setsid ${line} & wait`, 2: `setsid sh -c '${line} & wait' & wait` };
  const launched = launch({
    name: "parent",
    command: options.starters ? "sh" : process.execPath,
    args: options.starters ? ["-c", shells[options.starters]] : node.slice(1),
    output: {
      lines: {
        onLine: (line) => {
          if (line.startsWith("{")) started = JSON.parse(line) as typeof started;
        },
      },
    },
  });
  await until(
    "the parent's children",
    async () => {
      if (!started) throw new Error(`no pids yet: ${launched.logs.join("\n")}`);
    },
    20_000,
  );
  const { parent, pids } = started as { parent: number; pids: number[] };
  return { launched, parent, pids };
}

/** Those of `pids` still running once the others had the time to go (a few seconds at most). */
async function survivors(pids: number[]): Promise<number[]> {
  await until(
    "children gone",
    async () => {
      if (pids.some(running)) throw new Error("still running");
    },
    10_000,
  ).catch(() => {});
  return pids.filter(running);
}

describe("the children of a launcher's parent end with it, however it ends", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"] as const)(
    "%s to the parent leaves no child, frozen or not, nor a child's child running",
    async (signal) => {
      const { launched, pids } = await parentOfThree();
      expect(pids.filter(running)).toEqual(pids);
      launched.child.kill(signal);
      expect(await launched.exited).toBe(null);
      expect(await survivors(pids)).toEqual([]);
    },
  );

  it("a parent that exits on its own leaves none either", async () => {
    const { launched, pids } = await parentOfThree({ exit: true });
    expect(await launched.exited).toBe(0);
    expect(await survivors(pids)).toEqual([]);
  });

  it.each([1, 2] as const)(
    "a parent whose starter %i level(s) up is killed (pnpm, for `pnpm bench`) ends, and leaves none",
    async (starters) => {
      const { launched, parent, pids } = await parentOfThree({ starters });
      expect([parent, ...pids].filter(running)).toEqual([parent, ...pids]);
      launched.child.kill("SIGKILL");
      expect(await survivors([parent, ...pids])).toEqual([]);
    },
  );
});
