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
 * connection, a subscriber for its own reply channel, the Redis clock, the close intake. Gateways,
 * the operator API and workers (whose close intake closes a round through its partition) each open one.
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
  const closes = new CloseIntake(redis, options.prefix, replies, clock);
  return {
    dispatcher: new Dispatcher(queues, replies, clock),
    closes,
    queues,
    clock,
    redis,
    close: async () => {
      await replies.close();
      await Promise.all([queues.close(), closes.close()]);
      clock.stop();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
