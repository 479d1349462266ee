import { redisNames } from "@wallet/contracts/jobs";
import { Dispatcher } from "./dispatcher.ts";
import { PartitionQueues } from "./partitions.ts";
import { createRedis, type RedisClient, type RedisTarget } from "./redis.ts";
import { RedisClock } from "./redis-clock.ts";
import { ReplyChannel } from "./reply-channel.ts";

export interface OpenDispatcher {
  dispatcher: Dispatcher;
  queues: PartitionQueues;
  clock: RedisClock;
  redis: RedisClient;
  close: () => Promise<void>;
}

/**
 * Everything a process needs to put ledger jobs on partitions and await their replies: a command
 * connection, a subscriber for its own reply channel, the Redis clock. Gateways and the operator
 * API each open one.
 */
export async function openDispatcher(options: {
  redis: RedisTarget;
  prefix: string;
  partitions: number;
  clientId: string;
}): Promise<OpenDispatcher> {
  const redis = createRedis(options.redis, `${options.clientId}-cmd`);
  const subscriber = createRedis(options.redis, `${options.clientId}-sub`, { subscriber: true });
  const clock = new RedisClock(redis);
  const queues = new PartitionQueues(redis, options.prefix, options.partitions);
  const replies = new ReplyChannel(subscriber, redisNames(options.prefix).replyChannel(options.clientId));
  await clock.start();
  await replies.open();
  // Refuses to run with a partition count other than the one this prefix runs with (PartitionCountMismatch).
  await queues.enforceSerialization();
  return {
    dispatcher: new Dispatcher(queues, replies, clock),
    queues,
    clock,
    redis,
    close: async () => {
      await replies.close();
      await queues.close();
      clock.stop();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
