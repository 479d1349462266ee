/**
 * A seeded generator (mulberry32: 32 bits of state, fast, good enough to draw a schedule): the same
 * seed draws the same numbers on every machine and Node version, which `Math.random` cannot promise.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A new generator for one purpose, so drawing more for one does not shift another's numbers. */
  fork(salt: number): Random {
    return new Random(Math.imul(this.state ^ salt, 0x9e3779b1) ^ salt);
  }
}
