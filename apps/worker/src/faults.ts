/**
 * Test-only crash points (`FAULT_POINT`): the process kills itself with SIGKILL at the named step,
 * the way a power cut would, so the end-to-end tests can prove recovery from each of them.
 */
export const faultPoints = [
  "relay-before-publish",
  "relay-after-publish",
  "consumer-before-commit",
  /** Inside a group-committed ledger transaction of two jobs or more: written, not committed. */
  "batch-before-commit",
] as const;
export type FaultPoint = (typeof faultPoints)[number];

export function faultAt(configured: FaultPoint | undefined) {
  return async (point: FaultPoint): Promise<void> => {
    if (configured !== point) return;
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  };
}
