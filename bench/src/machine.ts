import os from "node:os";

/** The machine a result was measured on, for its JSON: numbers only compare on the same one. */
export function describeMachine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
}
