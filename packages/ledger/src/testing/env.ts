// The ledger's test helpers' only read of their own environment: a CLI a test starts inherits it
// (PATH, HOME, the toolchain's settings), but never a Redis setting the test did not name.
export function inheritedEnvWithoutRedis(): Record<string, string | undefined> {
  const { REDIS_URL: _url, REDIS_CLUSTER_NODES: _nodes, REDIS_PREFIX: _prefix, ...inherited } = process.env;
  return inherited;
}
