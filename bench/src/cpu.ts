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
 * CPU seconds of the whole machine so far, all cores, from /proc/stat: `busy` is user + nice +
 * system + irq + softirq; `steal` (the neighbours' share of this machine, 10–20% here) and `idle`
 * (idle + iowait) apart, so each meter decides what it counts.
 */
export function machineCpu(): { busy: number; steal: number; idle: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: (user + nice + system + irq + softirq) / ticksPerSecond,
    steal: steal / ticksPerSecond,
    idle: (idle + iowait) / ticksPerSecond,
  };
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
 * CPU seconds so far of named groups of processes. Remembers each pid's last reading, so a process
 * that exits inside a window (the load) keeps what it used instead of dropping to 0.
 */
export class GroupCpu {
  private readonly lastSeen = new Map<number, number>();

  read(groups: Record<string, number[]>): Record<string, number> {
    const seconds: Record<string, number> = {};
    for (const [name, pids] of Object.entries(groups)) {
      seconds[name] = pids.reduce((sum, pid) => {
        const used = cpuSeconds(pid) ?? this.lastSeen.get(pid) ?? 0;
        this.lastSeen.set(pid, used);
        return sum + used;
      }, 0);
    }
    return seconds;
  }
}

/**
 * `pnpm bench`'s meter: CPU seconds of named groups of processes between `start()` and `stop()`, and
 * the machine's busy seconds (the `machine` entry: every process, ours or not, so nothing the system
 * causes escapes the meter; steal left out, it is not ours).
 */
export class CpuMeter {
  private before: Record<string, number> = {};
  private readonly groupCpu = new GroupCpu();

  constructor(private readonly groups: () => Record<string, number[]>) {}

  private read(): Record<string, number> {
    return { machine: machineCpu().busy, ...this.groupCpu.read(this.groups()) };
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
      Object.entries(after).map(([name, seconds]) => [name, seconds - (this.before[name] ?? 0)]),
    );
  }
}
