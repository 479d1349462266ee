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

export function redisTarget(env: {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }>;
}): RedisTarget {
  return { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES };
}
