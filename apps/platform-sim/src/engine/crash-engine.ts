import type { SimOperator } from "../env.ts";
import type { Sessions } from "../sessions.ts";
import type { RetryPolicy } from "../wallet-client.ts";
import { playCrashRound } from "./crash-round.ts";
import { SimStats } from "./stats.ts";

export interface PlayOptions {
  rounds: number;
  pauseMs?: number;
  freeBetRate?: number;
  voidRate?: number;
}

/** Plays crash rounds one after another, as a server-driven crash game does; one run at a time. */
export class CrashEngine {
  stats = new SimStats();
  running = false;
  private stopRequested = false;

  constructor(
    private readonly operators: Map<number, SimOperator>,
    private readonly sessions: Sessions,
    private readonly policy: RetryPolicy,
  ) {}

  /** Resolves when the rounds are played (or `stop()` was called). */
  async play(options: PlayOptions): Promise<SimStats> {
    if (this.running) throw new Error("a run is already in progress");
    this.running = true;
    this.stopRequested = false;
    this.stats = new SimStats();
    try {
      for (let round = 0; round < options.rounds && !this.stopRequested; round++) {
        await playCrashRound({
          operators: this.operators,
          sessions: this.sessions,
          policy: this.policy,
          stats: this.stats,
          random: Math.random,
          freeBetRate: options.freeBetRate ?? 0.1,
          voidRate: options.voidRate ?? 0.05,
        });
        if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
      }
      return this.stats;
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    this.stopRequested = true;
  }
}
