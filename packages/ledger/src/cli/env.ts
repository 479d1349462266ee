import { redisEnvShape } from "@wallet/queue/redis-env";
import { z } from "zod";

// The ledger's command-line tools are processes of their own; this is their only read of the environment.
const parsed = z
  .object({
    DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
    // The migrator's own user (docs/databases.md, "Users and grants"); the runtime's URL when unset.
    MIGRATE_DATABASE_URL: z.string().optional(),
    // The wallet's Redis, for `rounds:at-risk`'s read of the acknowledgement log: no default, since
    // a log read on the wrong Redis would be taken for an empty one; unset, the log is not read.
    REDIS_URL: z.string().min(1).optional(),
    REDIS_CLUSTER_NODES: redisEnvShape.REDIS_CLUSTER_NODES,
    REDIS_PREFIX: redisEnvShape.REDIS_PREFIX,
  })
  .parse(process.env);

export const cliEnv = {
  DATABASE_URL: parsed.DATABASE_URL,
  MIGRATE_DATABASE_URL: parsed.MIGRATE_DATABASE_URL ?? parsed.DATABASE_URL,
  /** Where the wallet's Redis is, when REDIS_URL or REDIS_CLUSTER_NODES says. */
  redis:
    parsed.REDIS_URL !== undefined || parsed.REDIS_CLUSTER_NODES !== undefined
      ? { url: parsed.REDIS_URL ?? "", clusterNodes: parsed.REDIS_CLUSTER_NODES, prefix: parsed.REDIS_PREFIX }
      : undefined,
};
