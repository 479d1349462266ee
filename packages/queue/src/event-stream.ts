/**
 * BullMQ appends an event-stream entry at every step of every job (added, waiting, active,
 * completed, removed …), 10,000 entries a queue by default, and nothing of ours reads them (no
 * QueueEvents; replies travel on their own channel, reports as jobs). At the callbacks' rates a
 * full stream is about a megabyte a queue that Redis holds for nothing, so every queue keeps a short
 * one. Every `new Queue` on a name must pass it: the last one opened writes the cap into the queue's
 * meta hash for all.
 */
export const shortEventStream = { streams: { events: { maxLen: 100 } } } as const;
