/**
 * Test-only crash points (`FAULT_POINT`): the process kills itself with SIGKILL at the named step,
 * the way a power cut would, so the end-to-end tests can prove recovery from each of them.
 */
export const faultPoints = [
  /** The relay's batch claimed (marked published) and committed, nothing on the queues yet. */
  "relay-before-publish",
  /** The relay's batch on the queues. */
  "relay-after-publish",
  "consumer-before-commit",
  /** As `relay-before-publish`, at the first turn that claimed two rounds or more (8 rows). */
  "relay-mid-batch",
  /** As `consumer-before-commit`, in the first consumer transaction of two events or more. */
  "consumer-mid-batch",
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
