import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8", timeout: 30_000 });

describe("pnpm test:campaign's options", () => {
  it.each([
    [["--minutes", "1"], "--seed must be a positive integer"],
    [["--seed", "0", "--minutes", "1"], "--seed must be a positive integer"],
    [["--seed", "1"], "--minutes must be between 0.5 and 120"],
    [["--seed", "1", "--minutes", "500"], "--minutes must be between 0.5 and 120"],
    [["--seed", "1", "--minutes", "1", "--seeds", "x"], "--seeds must be a positive integer"],
    [
      ["--seed", "1", "--minutes", "1", "--topology", "ndb"],
      "--topology must be one of single, semisync, galera",
    ],
    [["--seed", "1", "--minutes", "1", "--sneed", "2"], "Unknown option '--sneed'"],
  ])(
    "refuses %j before starting anything: exit 2, the reason and the usage",
    { timeout: 30_000 },
    (args, reason) => {
      const result = run(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(reason);
      expect(result.stderr).toContain("usage: pnpm test:campaign");
      expect(result.stdout).toBe("");
    },
  );
});
