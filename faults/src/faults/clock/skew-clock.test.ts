import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const preload = fileURLToPath(new URL("./skew-clock.ts", import.meta.url));

function clocksOf(skewMs: string): { now: number; constructed: number; real: number; parsed: number } {
  const script =
    "console.log(JSON.stringify({ now: Date.now(), constructed: new Date().getTime(), " +
    "real: performance.timeOrigin + performance.now(), parsed: new Date(0).getTime() }))";
  const out = execFileSync(process.execPath, ["--import", "tsx", "--import", preload, "-e", script], {
    env: { PATH: "", CLOCK_SKEW_MS: skewMs },
  });
  return JSON.parse(out.toString());
}

describe("the skewed-clock preload", () => {
  it("moves Date.now() and new Date() by CLOCK_SKEW_MS, in both directions, and nothing else", () => {
    for (const skew of [45_000, -45_000]) {
      const clocks = clocksOf(String(skew));
      expect(Math.abs(clocks.now - clocks.real - skew)).toBeLessThan(1_000);
      expect(Math.abs(clocks.constructed - clocks.real - skew)).toBeLessThan(1_000);
      // An explicit time is still that time.
      expect(clocks.parsed).toBe(0);
    }
  });
});
