import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** User + system CPU seconds a process has used so far (from /proc; undefined once it is gone). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Busy CPU seconds of the whole machine so far, all cores: user + nice + system + irq + softirq
 * from /proc/stat. Idle, iowait and steal are left out: steal is the neighbours' share of this
 * machine (10–20% here), not ours.
 */
export function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / ticksPerSecond;
}

/** Pids whose command name is one of `names` (the local MariaDB and Redis servers). */
export function pidsNamed(...names: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, "utf8").trim())) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/**
 * CPU seconds of named groups of processes between `start()` and `stop()`, and of the whole machine
 * (the `machine` entry: every process, ours or not, so nothing the system causes escapes the meter).
 */
export class CpuMeter {
  private before = new Map<string, number>();
  /** Last reading per pid: a process that exits inside the window (the load) keeps what it used. */
  private readonly lastSeen = new Map<number, number>();

  constructor(private readonly groups: () => Record<string, number[]>) {}

  private read(): Map<string, number> {
    const now = new Map<string, number>([["machine", machineBusySeconds()]]);
    for (const [name, pids] of Object.entries(this.groups())) {
      now.set(
        name,
        pids.reduce((sum, pid) => {
          const seconds = cpuSeconds(pid) ?? this.lastSeen.get(pid) ?? 0;
          this.lastSeen.set(pid, seconds);
          return sum + seconds;
        }, 0),
      );
    }
    return now;
  }

  /** Reads every process now, so one that exits before `stop()` keeps what it had used. */
  sample(): void {
    this.read();
  }

  start(): void {
    this.before = this.read();
  }

  stop(): Record<string, number> {
    const after = this.read();
    return Object.fromEntries(
      [...after].map(([name, seconds]) => [name, seconds - (this.before.get(name) ?? 0)]),
    );
  }
}
