import type { SeenAnswer } from "../../harness/platform-load.ts";

/**
 * The seconds without service as the platform saw them: the longest stretch, from the kill to the end
 * of the load, in which no callback was answered 200 (answers' `answeredAt`, wall clock). Before a
 * kill, acknowledgements come every few milliseconds; a gap is the writer's death and the cluster's
 * view change.
 */
export function longestGapMs(answers: SeenAnswer[], fromMs: number): number {
  const times = answers
    .filter((answer) => answer.status === 200 && answer.answeredAt >= fromMs)
    .map((answer) => answer.answeredAt)
    .sort((a, b) => a - b);
  let longest = 0;
  let previous = fromMs;
  for (const time of times) {
    longest = Math.max(longest, time - previous);
    previous = time;
  }
  return longest;
}
