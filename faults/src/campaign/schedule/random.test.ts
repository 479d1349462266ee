import { describe, expect, it } from "vitest";
import { Random } from "./random.ts";

describe("the campaign's seeded generator", () => {
  it("draws the same numbers from the same seed, and others from another", () => {
    const draw = (seed: number) => {
      const random = new Random(seed);
      return Array.from({ length: 8 }, () => random.int(0, 1_000_000));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("stays within its bounds and reaches both ends", () => {
    const random = new Random(1);
    const seen = new Set(Array.from({ length: 2_000 }, () => random.int(3, 6)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  it("forks a stream that leaves the parent's numbers as they were", () => {
    const a = new Random(42);
    const b = new Random(42);
    a.fork(1).next();
    expect(a.next()).toBe(b.next());
  });
});
