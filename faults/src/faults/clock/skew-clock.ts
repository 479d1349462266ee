import { clockSkewMs } from "./env.ts";

/**
 * Preload (`node --import tsx --import …/skew-clock.ts`) that sets this process's wall clock
 * CLOCK_SKEW_MS off, as a host whose NTP drifted would be: `Date.now()` and `new Date()` move,
 * monotonic time (`performance.now()`) does not. Test-only.
 */
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

class SkewedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(realNow() + clockSkewMs);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return realNow() + clockSkewMs;
  }
}

globalThis.Date = SkewedDate as DateConstructor;
