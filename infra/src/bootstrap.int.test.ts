import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * A PATH like a new user's: every program of the system's bin folders but pnpm (a symlink farm, since
 * on this machine pnpm sits in /usr/bin beside node and bash).
 */
function pathWithoutPnpm(): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "no-pnpm-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const seen = new Set<string>();
  for (const folder of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === "pnpm" || name === "pnpx" || seen.has(name)) continue;
      seen.add(name);
      symlinkSync(join(folder, name), join(bin, name));
    }
  }
  return { dir, path: bin };
}

/**
 * What the machine's global npmrc says about reaching the registry (a proxy's CA, a mirror). Moving
 * npm's prefix below also moves where npm looks for that file, which a real user without rights to
 * the global folder still reads: carried over, so only the rights differ, not the network.
 */
function machineNpmSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const key of ["cafile", "registry"]) {
    const value = execFileSync("npm", ["config", "get", key], { encoding: "utf8" }).trim();
    if (value && value !== "null" && value !== "undefined") settings[`npm_config_${key}`] = value;
  }
  return settings;
}

const farm = pathWithoutPnpm();
afterAll(() => rmSync(farm.dir, { recursive: true, force: true }));

describe("the README's test command for a new user (issue 19)", () => {
  it("runs with no pnpm on the PATH and an npm global folder it cannot write", async () => {
    // /sys refuses new folders even to root (EPERM): `npm install -g` fails as it does for a user
    // without rights to npm's global folder, and the scripts fall back to a private pnpm (.tools).
    const env = {
      HOME: process.env.HOME ?? tmpdir(),
      PATH: farm.path,
      ...machineNpmSettings(),
      npm_config_prefix: "/sys",
      DATABASE_URL: process.env.DATABASE_URL ?? "mysql://root@127.0.0.1:3306/wallet",
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    };
    await expect(run("bash", ["-c", "command -v pnpm"], { env })).rejects.toThrow();
    // `npm test` with one small file: the whole bootstrap, then vitest, through the same script.
    const { stdout } = await run("npm", ["test", "--", "infra/src/metric-names.test.ts"], {
      cwd: root,
      env,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(stdout).not.toContain("command not found");
  }, 300_000);
});
