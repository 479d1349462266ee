import type { RedisClient } from "./redis.ts";

/** A sample whose round trip took longer than this says little about the offset; it is not used. */
const MAX_USEFUL_RTT_MS = 250;

/**
 * Redis server time, the one clock every gateway and worker agree on. Each process measures its
 * offset from Redis (`TIME`, best of several samples by round trip, halving it) and re-measures
 * periodically, so deadlines hold even when machine clocks drift apart.
 */
export class RedisClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Round trip of the sample the offset came from: the offset is good to about half of it. */
  rttMs = Number.NaN;

  constructor(private readonly redis: RedisClient) {}

  async start(resyncEveryMs = 10_000): Promise<void> {
    await this.redis.ping();
    await this.sync();
    this.timer = setInterval(() => {
      this.sync().catch(() => {
        // Keep the last offset; Redis being away is reported elsewhere.
      });
    }, resyncEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Milliseconds since the epoch, in Redis time. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  private async sync(samples = 5): Promise<void> {
    let best: { offset: number; rtt: number } | undefined;
    for (let i = 0; i < samples; i++) {
      const sent = Date.now();
      const [seconds, micros] = await this.redis.time();
      const received = Date.now();
      const serverMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const sample = { offset: serverMs - (sent + received) / 2, rtt: received - sent };
      if (!best || sample.rtt < best.rtt) best = sample;
    }
    // A slow Redis (or a busy event loop) makes every sample unreliable: keep the previous offset.
    if (best && (best.rtt <= MAX_USEFUL_RTT_MS || Number.isNaN(this.rttMs))) {
      this.offsetMs = best.offset;
      this.rttMs = best.rtt;
    }
  }
}
