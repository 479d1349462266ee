import { checkKeySlot, partitionSpread, sideEffectSlots } from "../cluster-slots.ts";
import type { ScalingRun } from "../context.ts";

/**
 * slots: arithmetic only, no servers: how the ledger partitions' queues and the side-effect queues
 * fall on the masters of a 3- or 6-master Redis Cluster.
 */
export function slotsPhase(run: ScalingRun): void {
  checkKeySlot();
  run.results.slots = {
    partitions: [32, 64, 128].flatMap((partitions) =>
      [3, 6].map((masters) => partitionSpread(partitions, masters)),
    ),
    sideEffectQueues: { masters3: sideEffectSlots(3), masters6: sideEffectSlots(6) },
  };
  run.say(`==> slots: ${JSON.stringify(run.results.slots)}`);
}
