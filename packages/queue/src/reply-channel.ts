import { type OutcomeReply, outcomeReplies } from "@wallet/contracts/jobs";
import type { RedisClient } from "./redis.ts";

/**
 * A gateway's private reply channel: one Redis subscription per gateway process and a map of
 * waiting requests, instead of a listener per request on a shared event stream. A reply that
 * never comes (worker died, message lost) resolves as `undefined` at the deadline; the entry is
 * removed either way, so nothing leaks.
 */
export class ReplyChannel {
  private readonly waiting = new Map<string, (reply: OutcomeReply | undefined) => void>();

  constructor(
    private readonly subscriber: RedisClient,
    readonly channel: string,
  ) {}

  async open(): Promise<void> {
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel !== this.channel) return;
      let replies: OutcomeReply[];
      try {
        replies = outcomeReplies.parse(JSON.parse(message));
      } catch {
        return;
      }
      for (const reply of replies) {
        const resolve = this.waiting.get(reply.id);
        if (resolve) {
          this.waiting.delete(reply.id);
          resolve(reply);
        }
      }
    });
    // Subscribe again after any reconnect: pub/sub state lives on the connection, and a reply
    // published while unsubscribed is lost (the caller then gets its 503 at the deadline).
    this.subscriber.on("ready", () => {
      this.subscriber.subscribe(this.channel).catch(() => {});
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** Register before enqueueing, so a fast reply cannot arrive before anyone waits for it. */
  expect(id: string, timeoutMs: number): Promise<OutcomeReply | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiting.delete(id);
          resolve(undefined);
        },
        Math.max(0, timeoutMs),
      );
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  /** Gives up on a request (e.g. enqueueing failed). */
  forget(id: string): void {
    this.waiting.get(id)?.(undefined);
    this.waiting.delete(id);
  }

  get pending(): number {
    return this.waiting.size;
  }

  async close(): Promise<void> {
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    await this.subscriber.unsubscribe(this.channel).catch(() => {});
  }
}

/**
 * Sends answers grouped by reply channel: one PUBLISH per process however many of its calls a batch
 * answered, the message its `ReplyChannel` reads.
 */
export async function publishReplies(
  redis: RedisClient,
  answers: Array<{ replyTo: string; reply: OutcomeReply }>,
): Promise<void> {
  await Promise.all(replyMessages(answers).map(([channel, message]) => redis.publish(channel, message)));
}

/** The messages `publishReplies` sends, `[channel, message]`: one per reply channel, its answers in order. */
export function replyMessages(
  answers: Array<{ replyTo: string; reply: OutcomeReply }>,
): Array<[string, string]> {
  const byChannel = new Map<string, OutcomeReply[]>();
  for (const { replyTo, reply } of answers) {
    const replies = byChannel.get(replyTo) ?? [];
    replies.push(reply);
    byChannel.set(replyTo, replies);
  }
  return [...byChannel].map(([channel, replies]) => [channel, JSON.stringify(replies)]);
}
