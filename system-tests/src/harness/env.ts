// The end-to-end harness's only read of its own environment: child processes need PATH to find tools.
export const harnessPath = process.env.PATH ?? "";

/**
 * The worker's environment for a test crash point (`apps/worker/src/test-crash-points.ts`): the point
 * and NODE_ENV=test, its second key, without which the worker refuses to boot.
 */
export function testCrashPointEnv(point: string): Record<string, string> {
  return { TEST_CRASH_POINT: point, NODE_ENV: "test" };
}
