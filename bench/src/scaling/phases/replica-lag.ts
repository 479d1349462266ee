import { setTimeout as sleep } from "node:timers/promises";
import type { Replication } from "../replication.ts";

/** The probe's table, on the primary; created before the seed's catch-up so the replica has it too. */
export async function createLagProbeTable(replication: Replication): Promise<void> {
  const { db } = replication.admin;
  await db.execute("CREATE DATABASE scaling_probe");
  await db.execute("CREATE TABLE scaling_probe.beat (id INT PRIMARY KEY, seq BIGINT NOT NULL)");
  await db.execute("INSERT INTO scaling_probe.beat VALUES (1, 0)");
}

/**
 * Lag probe: a row updated on the primary every 100 ms, read on the replica every 5 ms; a value's
 * lag is from its commit on the primary to its first sighting on the replica. `take()` returns
 * (and forgets) the lags seen since the last call, so a caller can cut them into windows.
 */
export function startLagProbe(replication: Replication) {
  const committedAt = new Map<number, number>();
  const lags: number[] = [];
  let probing = true;
  let seq = 0;
  let seen = 0;
  const writer = (async () => {
    while (probing) {
      seq += 1;
      await replication.admin.db.execute(`UPDATE scaling_probe.beat SET seq = ${seq} WHERE id = 1`);
      committedAt.set(seq, performance.now());
      await sleep(100);
    }
  })();
  const reader = (async () => {
    // After the stop, read on until the replica has shown the last value written.
    while (probing || seen < seq) {
      const [[row]] = (await replication.replicaAdmin.db.execute(
        "SELECT seq FROM scaling_probe.beat WHERE id = 1",
      )) as unknown as [Array<{ seq: string | number }>];
      const now = performance.now();
      const value = Number(row?.seq ?? 0);
      for (let s = seen + 1; s <= value; s++) {
        const at = committedAt.get(s);
        lags.push(at === undefined ? 0 : Math.max(0, now - at));
      }
      seen = Math.max(seen, value);
      await sleep(5);
    }
  })();
  return {
    take: () => lags.splice(0, lags.length),
    async stop(): Promise<void> {
      probing = false;
      await Promise.all([writer, reader]);
    },
  };
}
