import { redisNames } from "@wallet/contracts/jobs";
import { sideEffectTopics } from "@wallet/contracts/side-effects";
import { reportingQueueName, sideEffectQueueName } from "@wallet/queue/side-effect-queues";

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The Redis Cluster slot of a key: its `{hash tag}` if it has a non-empty one, else the whole key. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  if (open >= 0) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  return crc16(new TextEncoder().encode(key)) % 16384;
}

/** Redis's documented examples, so a wrong checksum cannot go unnoticed. */
export function checkKeySlot(): void {
  const expected: Array<[string, number]> = [
    ["123456789", 0x31c3 % 16384],
    ["foo", 12182],
    ["{user1000}.following", keySlot("user1000")],
  ];
  for (const [key, slot] of expected) {
    if (keySlot(key) !== slot) throw new Error(`keySlot(${key}) = ${keySlot(key)}, expected ${slot}`);
  }
}

/** The master that serves a slot when `masters` split the 16,384 slots evenly, as `--cluster create` does. */
function masterOf(slot: number, masters: number): number {
  const size = 16384 / masters;
  return Math.min(masters - 1, Math.floor(slot / size));
}

/**
 * How the ledger partitions' queues land on the masters of a cluster: each partition's keys share its
 * hash tag `{ledger-N}` (one slot); partitions with different tags spread over the masters.
 */
export function partitionSpread(partitions: number, masters: number) {
  const names = redisNames("wallet");
  const perMaster = Array.from({ length: masters }, () => 0);
  const slots = new Set<number>();
  for (let partition = 0; partition < partitions; partition++) {
    const queue = names.ledgerQueue(partition);
    const slot = keySlot(`${names.bullPrefix(queue)}:${queue}:wait`);
    slots.add(slot);
    perMaster[masterOf(slot, masters)] = (perMaster[masterOf(slot, masters)] ?? 0) + 1;
  }
  const even = partitions / masters;
  return {
    partitions,
    masters,
    distinctSlots: slots.size,
    perMaster,
    /** The busiest master's share against an even split (1.0 = perfectly even). */
    busiestOverEven: Math.round((Math.max(...perMaster) / even) * 100) / 100,
  };
}

/** The slots and masters of the side-effect queues: one slot each, so each topic lives on one master. */
export function sideEffectSlots(masters: number) {
  const names = redisNames("wallet");
  return [...sideEffectTopics.map(sideEffectQueueName), reportingQueueName].map((queue) => {
    const slot = keySlot(`${names.bullPrefix(queue)}:${queue}:wait`);
    return { queue, slot, master: masterOf(slot, masters) };
  });
}
