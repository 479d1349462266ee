// The harness's only read of its own environment: child processes need PATH to find tools.
export const harnessPath = process.env.PATH ?? "";

/** What a child process of the benchmark starts from: PATH and friends, none of our secrets. */
export function inheritedEnv(
  source: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const keep = ["PATH", "HOME", "NODE_OPTIONS", "TMPDIR"];
  return Object.fromEntries(keep.flatMap((name) => (source[name] ? [[name, source[name] as string]] : [])));
}

/**
 * The worker's environment for a test crash point (`apps/worker/src/test-crash-points.ts`): the point
 * and NODE_ENV=test, its second key, without which the worker refuses to boot.
 */
export function testCrashPointEnv(point: string): Record<string, string> {
  return { TEST_CRASH_POINT: point, NODE_ENV: "test" };
}

/**
 * The worker's environment for a planted bug (`apps/worker/src/planted-bugs.ts`): the bug and
 * NODE_ENV=test, its second key, as for a crash point.
 */
export function plantedBugEnv(bug: string): Record<string, string> {
  return { TEST_PLANTED_BUG: bug, NODE_ENV: "test" };
}

/**
 * The generated clients' run (`harness/openapi-check`): OPENAPI_CHECK_SEED picks other requests (a
 * fixed seed by default, so CI sends the same ones every time), OPENAPI_CHECK_REQUESTS sends more
 * (a soak) or fewer. Each test has its own default count.
 */
export function openApiCheckRun(defaultRequests: number): { seed: number; requests: number } {
  const seed = Number(process.env.OPENAPI_CHECK_SEED ?? 40);
  const requests = Number(process.env.OPENAPI_CHECK_REQUESTS ?? defaultRequests);
  if (!Number.isSafeInteger(seed)) throw new Error("OPENAPI_CHECK_SEED must be an integer");
  if (!Number.isSafeInteger(requests) || requests < 1)
    throw new Error("OPENAPI_CHECK_REQUESTS must be a positive integer");
  return { seed, requests };
}
