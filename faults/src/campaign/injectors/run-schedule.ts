import type { Schedule } from "../schedule/plan.ts";
import { type Injected, type InjectionContext, inject } from "./inject.ts";

/**
 * Runs the schedule against the system from `startedAt` (the load's start, `performance.now()`):
 * each fault is injected at its time, whatever else is on (faults overlap), and healed after its
 * duration. Resolves once every fault is over, with what each one did. A fault that could not be
 * injected or healed (a process that would not start again) is a problem of its own.
 */
export async function runSchedule(
  context: InjectionContext,
  schedule: Schedule,
  startedAt: number,
  log: (line: string) => void,
): Promise<Injected[]> {
  const elapsed = () => Math.round(performance.now() - startedAt);
  return Promise.all(
    schedule.faults.map(async (fault): Promise<Injected> => {
      const wait = fault.atMs - elapsed();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const startedMs = elapsed();
      log(`+${(startedMs / 1000).toFixed(1)}s #${fault.index} ${fault.kind} ${fault.target}`);
      try {
        const { note, problems } = await inject(context, fault);
        return { fault, startedMs, endedMs: elapsed(), note, problems };
      } catch (error) {
        // A process that would not start: its first line and its log's last lines say why.
        const lines = (error instanceof Error ? error.message : String(error)).split("\n");
        const message = [lines[0], ...lines.slice(1).slice(-12)].join(" | ");
        return {
          fault,
          startedMs,
          endedMs: elapsed(),
          note: "failed",
          problems: [
            `fault #${fault.index} ${fault.kind} ${fault.target}: not injected or not healed: ${message}`,
          ],
        };
      }
    }),
  );
}
