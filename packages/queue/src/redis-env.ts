import { z } from "zod";
import type { RedisTarget } from "./redis.ts";

const clusterNodes = z.string().transform((text, ctx) => {
  const nodes = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const match = /^(.+):(\d{1,5})$/.exec(entry);
      return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : undefined;
    });
  if (nodes.length === 0 || nodes.some((node) => node === undefined || node.port > 65_535)) {
    ctx.addIssue({ code: "custom", message: "REDIS_CLUSTER_NODES must be host:port[,host:port…]" });
    return z.NEVER;
  }
  return nodes as Array<{ host: string; port: number }>;
});

/** The Redis settings every app shares; spread into each app's env schema. */
export const redisEnvShape = {
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  /** Namespaces every Redis key (queues, reply channels, heartbeats); tests use one each. */
  REDIS_PREFIX: z.string().min(1).default("wallet"),
  /** Seed nodes of a Redis Cluster (`host:port,host:port`); when set, REDIS_URL is not used. */
  REDIS_CLUSTER_NODES: clusterNodes.optional(),
};

/**
 * How many ledger partitions (`ledger-<p>` queues) a prefix runs with; every gateway, worker and
 * operator API of a prefix must agree (the count is recorded in Redis and checked at boot). Each
 * partition costs a BullMQ job per gateway per cycle, and a job costs far more than the callbacks
 * it carries, so the default is the fewest that let one worker's batch take jobs from two places at
 * once; docs/scaling.md says when to raise it (more gateways, more workers, a Redis Cluster).
 */
export const partitionsEnvShape = {
  LEDGER_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(2),
};

export function redisTarget(env: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }>;
}): RedisTarget {
  return { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES };
}
