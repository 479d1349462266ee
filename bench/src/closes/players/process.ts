import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { launch, repoRoot, stopProcess } from "@wallet/system-tests/harness/processes/launch";
import type { PlayersCommand, PlayersConfig, PlayersMessage, PlayersResult } from "./config.ts";

export interface RunningPlayers {
  /** Resolves once its first callback is answered (its process is up and playing). */
  playing: Promise<void>;
  /** Stops its rounds, waits for the resends under way and resolves with every send it made. */
  stop: () => Promise<PlayersResult>;
}

/**
 * Forks one operator's players (`main.ts`) through the shared launcher, in a process of its own as
 * `pnpm bench`'s load is: it ends with the benchmark however the benchmark ends.
 */
export function startPlayers(config: PlayersConfig): RunningPlayers {
  const proc = launch({
    name: "players",
    command: process.execPath,
    args: ["--import", "tsx", `${repoRoot}bench/src/closes/players/main.ts`],
    env: inheritedEnv(),
    output: "inherit",
    ipc: true,
  });
  let resolvePlaying: () => void = () => {};
  const playing = new Promise<void>((resolve) => {
    resolvePlaying = resolve;
  });
  const result = new Promise<PlayersResult>((resolve, reject) => {
    proc.child.on("message", (message: PlayersMessage) => {
      if (message.type === "playing") resolvePlaying();
      if (message.type === "done") resolve({ sends: message.sends, callbacks: message.callbacks });
      if (message.type === "error") reject(new Error(`players failed: ${message.message}`));
    });
    void proc.exited.then((code) => reject(new Error(`players process exited (${code}) without a report`)));
  });
  // Never left unhandled while nobody awaits it yet; `stop` returns it.
  result.catch(() => {});
  proc.child.send(config);
  return {
    playing: Promise.race([playing, result.then(() => {})]),
    stop: async () => {
      proc.child.send({ type: "stop" } satisfies PlayersCommand);
      try {
        return await result;
      } finally {
        await stopProcess(proc, "SIGTERM", { graceMs: 5_000 });
      }
    },
  };
}
