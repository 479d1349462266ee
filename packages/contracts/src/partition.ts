import { createHash } from "node:crypto";

/**
 * The ledger partition a key lands on: stable across processes, restarts and machines (the
 * first 4 bytes of SHA-1), so one player's callbacks always queue behind each other.
 */
export function partitionOf(tenantId: number, key: string, partitions: number): number {
  const digest = createHash("sha1").update(`${tenantId}:${key}`).digest();
  return digest.readUInt32BE(0) % partitions;
}
