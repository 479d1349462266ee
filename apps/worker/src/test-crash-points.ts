import type { LedgerContext } from "@wallet/ledger/context";
import { type PlantedBug, plantedLedgerHooks } from "./planted-bugs.ts";

/**
 * TEST HOOKS. Crash points for the fault and end-to-end suites: with `TEST_CRASH_POINT` set, the
 * worker kills itself with SIGKILL at the named step, the way a power cut would, so the tests can
 * prove recovery from each of them. Two keys switch one on (the point and `NODE_ENV=test`, see
 * `env.ts`): a production deployment never sets NODE_ENV=test, so a stray variable copied into one
 * stops the worker at boot with a message instead of crashing it mid-batch.
 */
export const testCrashPoints = [
  /** The relay's batch claimed (marked published) and committed, nothing on the queues yet. */
  "relay-before-publish",
  /** The relay's batch on the queues. */
  "relay-after-publish",
  "consumer-before-commit",
  /** As `relay-before-publish`, at the first turn that claimed two rounds or more (8 rows). */
  "relay-mid-batch",
  /** As `consumer-before-commit`, in the first consumer transaction of two events or more. */
  "consumer-mid-batch",
  /** Inside a group-committed ledger transaction of two calls or more: written, not committed. */
  "batch-before-commit",
] as const;
export type TestCrashPoint = (typeof testCrashPoints)[number];

/** What production code calls at each point; a no-op unless that point was switched on. */
export type CrashAt = (point: TestCrashPoint) => Promise<void>;

export function testCrashAt(configured: TestCrashPoint | undefined): CrashAt {
  return async (point) => {
    if (configured !== point) return;
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  };
}

/**
 * The ledger's test hooks the worker's test variables switch on (both refused without NODE_ENV=test,
 * `env.ts`); undefined in production. `batch-before-commit` crashes inside a real batch, its writes
 * sent and COMMIT not. `TEST_HOLD_BATCH_ROUND` holds a batch with a BET into such a round for
 * `TEST_HOLD_BATCH_MS` after its reads: the window in which a round's close, on another worker,
 * must wait for that BET (`system-tests/src/e2e/late-bet-race.int.test.ts`). `TEST_PLANTED_BUG`'s
 * ledger part (`planted-bugs.ts`).
 */
export function ledgerTestHooks(
  env: {
    TEST_CRASH_POINT?: TestCrashPoint;
    TEST_HOLD_BATCH_ROUND?: string;
    TEST_HOLD_BATCH_MS: number;
    TEST_PLANTED_BUG?: PlantedBug;
  },
  crashAt: CrashAt,
): LedgerContext["testHooks"] {
  const hooks: NonNullable<LedgerContext["testHooks"]> = plantedLedgerHooks(env.TEST_PLANTED_BUG);
  if (env.TEST_CRASH_POINT === "batch-before-commit")
    hooks.beforeBatchCommit = (requests) =>
      requests.length >= 2 ? crashAt("batch-before-commit") : Promise.resolve();
  const round = env.TEST_HOLD_BATCH_ROUND;
  if (round !== undefined)
    hooks.afterBatchRead = async (requests) => {
      if (requests.some((one) => one.kind === "BET" && one.request.action_id.startsWith(round)))
        await new Promise((resolve) => setTimeout(resolve, env.TEST_HOLD_BATCH_MS));
    };
  return Object.keys(hooks).length > 0 ? hooks : undefined;
}
