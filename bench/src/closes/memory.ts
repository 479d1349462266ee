import { readFileSync, writeFileSync } from "node:fs";
import type { RedisClient } from "@wallet/queue/redis";
import { median } from "@wallet/telemetry/percentiles";
import { round } from "../stats.ts";

const MiB = 1024 * 1024;

/** A process's resident memory now, or its high-water mark, in bytes (undefined once it is gone). */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match?.[1] ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the high-water mark to the resident size now (Linux 4.0+, our own child); false if refused. */
function resetHighWater(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

interface Series {
  samples: Array<[at: number, bytes: number]>;
}

/** Growth of a series over a close: its peak after the mark minus its median in the second before it. */
export interface Growth {
  baselineMiB: number;
  peakMiB: number;
  growthMiB: number;
}

/**
 * Samples, every `everyMs`, the resident memory (`/proc/<pid>/status` VmRSS) of the processes named
 * and Redis' `used_memory` (INFO memory; `redisClients`: its `mem_clients_normal`, the part in clients' buffers). `mark()` at the close's first send resets each process's
 * VmHWM, so a peak between two samples is seen too; `growth()` is the peak after the mark minus the
 * value just before it.
 */
export class MemorySampler {
  private readonly series = new Map<string, Series>();
  private timer: NodeJS.Timeout | undefined;
  private markedAt = Number.POSITIVE_INFINITY;
  private readonly highWaterReset = new Map<string, boolean>();
  private redisBusy = false;

  constructor(
    private readonly pids: Record<string, number>,
    private readonly redis: RedisClient,
    private readonly everyMs: number,
  ) {
    for (const name of [...Object.keys(pids), "redis", "redisClients"])
      this.series.set(name, { samples: [] });
  }

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  private record(name: string, bytes: number | undefined): void {
    if (bytes !== undefined) this.series.get(name)?.samples.push([Date.now(), bytes]);
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) this.record(name, statusBytes(pid, "VmRSS"));
    if (this.redisBusy) return; // one INFO at a time, however slow Redis is under contention
    this.redisBusy = true;
    this.redis
      .info("memory")
      .then((text) => {
        this.record("redis", Number(/^used_memory:(\d+)/m.exec(text)?.[1]));
        // Its clients' buffers apart (a piece being written or read sits there): what the growth is made of.
        this.record("redisClients", Number(/^mem_clients_normal:(\d+)/m.exec(text)?.[1]));
      })
      .catch(() => {})
      .finally(() => {
        this.redisBusy = false;
      });
  }

  /** The close's first send: the baseline is what came before, the peak what comes after. */
  mark(): void {
    this.sample();
    this.markedAt = Date.now();
    for (const [name, pid] of Object.entries(this.pids)) this.highWaterReset.set(name, resetHighWater(pid));
  }

  stop(): Record<string, Growth> {
    clearInterval(this.timer);
    this.sample();
    const growth: Record<string, Growth> = {};
    for (const [name, { samples }] of this.series) {
      const before = samples.filter(([at]) => at <= this.markedAt && at > this.markedAt - 1_000);
      const after = samples.filter(([at]) => at > this.markedAt).map(([, bytes]) => bytes);
      const pid = this.pids[name];
      if (pid !== undefined && this.highWaterReset.get(name)) after.push(statusBytes(pid, "VmHWM") ?? 0);
      const baseline = median(before.map(([, bytes]) => bytes));
      const peak = Math.max(baseline, ...after);
      growth[name] = {
        baselineMiB: round(baseline / MiB, 1),
        peakMiB: round(peak / MiB, 1),
        growthMiB: round((peak - baseline) / MiB, 1),
      };
    }
    return growth;
  }
}
