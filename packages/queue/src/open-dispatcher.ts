import { redisNames } from "@wallet/contracts/jobs";
import { CloseIntake } from "./close-intake.ts";
import { Dispatcher } from "./dispatcher.ts";
import { PartitionQueues } from "./partitions.ts";
import { createRedis, type RedisClient, type RedisTarget } from "./redis.ts";
import { RedisClock } from "./redis-clock.ts";
import { ReplyChannel } from "./reply-channel.ts";

export interface OpenDispatcher {
  dispatcher: Dispatcher;
  /** Where CLOSE_ROUNDs past the ordinary body limit go (`close-intake.ts`), answered on the same channel. */
  closes: CloseIntake;
  queues: PartitionQueues;
  clock: RedisClock;
  redis: RedisClient;
  close: () => Promise<void>;
}

/**
 * Everything a process needs to put ledger jobs on partitions and await their replies: a command
 * connection, a subscriber for its own reply channel, the Redis clock, the close intake. Gateways and
 * the operator API each open one; a worker, which has its queues and clock already, opens only the
 * reply channel (`openReplies`).
 */
export async function openDispatcher(options: {
  redis: RedisTarget;
  prefix: string;
  partitions: number;
  clientId: string;
}): Promise<OpenDispatcher> {
  const redis = createRedis(options.redis, `${options.clientId}-cmd`);
  const clock = new RedisClock(redis);
  const queues = new PartitionQueues(redis, options.prefix, options.partitions);
  const own = await openReplies(options);
  const replies = own.replies;
  await clock.start();
  // Refuses to run with a partition count other than the one this prefix runs with (PartitionCountMismatch).
  await queues.enforceSerialization();
  const closes = new CloseIntake(redis, options.prefix, replies, clock);
  return {
    dispatcher: new Dispatcher(queues, replies, clock),
    closes,
    queues,
    clock,
    redis,
    close: async () => {
      await own.close();
      await Promise.all([queues.close(), closes.close()]);
      clock.stop();
      redis.disconnect();
    },
  };
}

/** A process's own reply channel, on a subscriber connection of its own that `close` disconnects. */
export async function openReplies(options: {
  redis: RedisTarget;
  prefix: string;
  clientId: string;
}): Promise<{ replies: ReplyChannel; close: () => Promise<void> }> {
  const subscriber = createRedis(options.redis, `${options.clientId}-sub`, { subscriber: true });
  const replies = new ReplyChannel(subscriber, redisNames(options.prefix).replyChannel(options.clientId));
  await replies.open();
  return {
    replies,
    close: async () => {
      await replies.close();
      subscriber.disconnect();
    },
  };
}
