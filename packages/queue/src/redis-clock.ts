import type { Redis } from "ioredis";

/**
 * Redis server time, the one clock every gateway and worker agree on. Each process measures its
 * offset from Redis (`TIME`, halving the round trip) and re-measures periodically, so deadlines
 * hold even when machine clocks drift apart.
 */
export class RedisClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly redis: Redis) {}

  async start(resyncEveryMs = 10_000): Promise<void> {
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

  private async sync(): Promise<void> {
    const sent = Date.now();
    const [seconds, micros] = await this.redis.time();
    const received = Date.now();
    const serverMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    this.offsetMs = serverMs - (sent + received) / 2;
  }
}
