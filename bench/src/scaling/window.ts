import { setTimeout as sleep } from "node:timers/promises";
import type { MysqlCounters } from "../server-stats.ts";
import { round } from "../stats.ts";
import type { Meter, Snapshot } from "./counters.ts";

/**
 * What happened between two snapshots, per callback when `callbacks` > 0 and per second always:
 * CPU ms of each process group (and of everything else on the machine), Redis commands and bytes,
 * MySQL statements, commits, log flushes, row-lock waits and deadlocks, mean job and queue times.
 */
export function describeWindow(a: Snapshot, b: Snapshot, callbacks: number) {
  const seconds = (b.at - a.at) / 1000;
  const per = callbacks > 0 ? callbacks : seconds;
  const unit = callbacks > 0 ? "perCallback" : "perSecond";
  const cpuMs: Record<string, number> = {};
  let ours = 0;
  for (const [name, value] of Object.entries(b.cpu)) {
    const used = value - (a.cpu[name] ?? 0);
    ours += used;
    cpuMs[name] = round((used * 1000) / per);
  }
  const machineBusy = b.machine.busy - a.machine.busy;
  cpuMs.otherOnMachine = round((Math.max(0, machineBusy - ours) * 1000) / per);
  const calls: Record<string, number> = {};
  let callsTotal = 0;
  for (const [name, value] of Object.entries(b.redis.calls)) {
    const delta = value - (a.redis.calls[name] ?? 0);
    if (delta <= 0) continue;
    calls[name] = delta;
    callsTotal += delta;
  }
  const topCalls = Object.fromEntries(
    Object.entries(calls)
      .sort(([, x], [, y]) => y - x)
      .slice(0, 12)
      .map(([name, value]) => [name, round(value / per)]),
  );
  const mysql: Record<string, number> = {};
  for (const [key, value] of Object.entries(b.mysql)) {
    mysql[key] = round((value - (a.mysql[key as keyof MysqlCounters] ?? 0)) / per);
  }
  const jobs: Record<string, { count: number; meanMs: number }> = {};
  for (const [op, [sum, count]] of Object.entries(b.workers.jobs)) {
    const [sumBefore, countBefore] = a.workers.jobs[op] ?? [0, 0];
    const n = count - countBefore;
    if (n > 0) jobs[op] = { count: n, meanMs: round(((sum - sumBefore) * 1000) / n) };
  }
  const waits = b.workers.queueWait[1] - a.workers.queueWait[1];
  return {
    seconds: round(seconds, 1),
    callbacks,
    throughput: callbacks > 0 ? round(callbacks / seconds, 1) : 0,
    unit,
    machineBusyPercent: round((machineBusy / (b.machine.total - a.machine.total)) * 100, 1),
    cpuMs,
    redis: {
      commands: round((b.redis.commands - a.redis.commands) / per),
      callsWithScriptInternals: round(callsTotal / per),
      topCalls,
      netInBytes: round((b.redis.netIn - a.redis.netIn) / per, 0),
      netOutBytes: round((b.redis.netOut - a.redis.netOut) / per, 0),
      clientsAtEnd: b.redis.clients,
    },
    mysql,
    jobs,
    queueWaitMeanMs:
      waits > 0 ? round(((b.workers.queueWait[0] - a.workers.queueWait[0]) * 1000) / waits) : 0,
  };
}
export type WindowDescription = ReturnType<typeof describeWindow>;

/** A window with no load: what the system costs per second just by running (polls, heartbeats, gauges). */
export async function idleWindow(meter: Meter, seconds: number): Promise<WindowDescription> {
  const start = await meter.snap();
  await sleep(seconds * 1000);
  return describeWindow(start, await meter.snap(), 0);
}

/**
 * Per-callback counters with the idle background (per second × window length) taken out, so a verb
 * is not charged for the polls and heartbeats that run whether or not it does.
 */
export function lessBackground(window: WindowDescription, idle: WindowDescription) {
  const net = (perCallback: number, perSecond: number) =>
    round(perCallback - (perSecond * window.seconds) / Math.max(1, window.callbacks));
  return {
    redisCommands: net(window.redis.commands, idle.redis.commands),
    redisCallsWithScriptInternals: net(
      window.redis.callsWithScriptInternals,
      idle.redis.callsWithScriptInternals,
    ),
    mysqlQuestions: net(window.mysql.Questions ?? 0, idle.mysql.Questions ?? 0),
    mysqlCommits: net(window.mysql.Com_commit ?? 0, idle.mysql.Com_commit ?? 0),
    redisCpuMs: net(window.cpuMs.redis ?? 0, idle.cpuMs.redis ?? 0),
    workerCpuMs: net(window.cpuMs.worker ?? 0, idle.cpuMs.worker ?? 0),
    mariadbCpuMs: net(window.cpuMs.mariadb ?? 0, idle.cpuMs.mariadb ?? 0),
  };
}
