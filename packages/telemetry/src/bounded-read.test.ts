import { describe, expect, it } from "vitest";
import { bounded, ReadTimeout, scrapeProbe } from "./bounded-read.ts";

describe("bounded reads", () => {
  it("passes a read that answers in time through, value or error", async () => {
    await expect(bounded(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(bounded(Promise.reject(new Error("refused")), 50)).rejects.toThrow("refused");
  });

  it("gives up on a read that never answers, naming it", async () => {
    const never = new Promise<number>(() => {});
    const started = performance.now();
    await expect(bounded(never, 50, "redis check")).rejects.toThrow(ReadTimeout);
    await expect(bounded(never, 50, "redis check")).rejects.toThrow(
      "redis check did not answer within 50 ms",
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("a scrape probe gives up well inside a scrape's timeout", async () => {
    const probe = scrapeProbe(() => new Promise<number>(() => {}), "queue depths");
    const started = performance.now();
    await expect(probe()).rejects.toThrow("queue depths did not answer within 500 ms");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
