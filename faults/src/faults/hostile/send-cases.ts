import http from "node:http";
import type { FuzzCase } from "./fuzz-cases.ts";
import { envelopeProblem, send } from "./raw-http.ts";

export interface CasesSent {
  /** How many answers of each status; `error` counts the requests that got none. */
  histogram: Record<string, number>;
  /** Every case answered with another status than it expects, or without the envelope: one line each. */
  problems: string[];
  seconds: string;
}

/**
 * Sends every case to the gateway at `port` on `lanes` keep-alive sockets at once, and checks each
 * answer against the status its case expects and the contract's envelope.
 */
export async function sendCases(port: number, cases: FuzzCase[], lanes: number): Promise<CasesSent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: lanes });
  const histogram: Record<string, number> = {};
  const problems: string[] = [];
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < cases.length; index = next++) {
      const fuzz = cases[index] as FuzzCase;
      try {
        const answer = await send(port, fuzz, agent);
        histogram[answer.status] = (histogram[answer.status] ?? 0) + 1;
        const problem =
          answer.status !== fuzz.expected
            ? `HTTP ${answer.status}, expected ${fuzz.expected}: ${answer.text.slice(0, 120)}`
            : envelopeProblem(answer);
        if (problem) problems.push(`#${index} ${fuzz.label}: ${problem}`);
      } catch (error) {
        histogram.error = (histogram.error ?? 0) + 1;
        problems.push(`#${index} ${fuzz.label}: ${String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  agent.destroy();
  const seconds = ((performance.now() - started) / 1_000).toFixed(1);
  return { histogram, problems, seconds };
}
