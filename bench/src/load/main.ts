import { type LoadConfig, type LoadMessage, loadConfig } from "./config.ts";
import { httpPoster } from "./http-client.ts";
import { Recorder } from "./recorder.ts";
import { seededRandom, VirtualPlatform } from "./workload.ts";

/**
 * The load process: `concurrency` closed loops, each a virtual platform connection playing rounds
 * for its share of the players. Started by the orchestrator with an IPC channel; it receives its
 * config, reports when the measured window opens and closes, and sends its summary.
 */
function tell(message: LoadMessage): Promise<void> {
  // Resolves once the message is written: disconnecting earlier would drop a large summary.
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()) ?? resolve());
}

async function run(config: LoadConfig): Promise<void> {
  const client = httpPoster(config.target, config.concurrency, config.timeoutMs);
  const recorder = new Recorder();
  const start = performance.now();
  const measureFrom = start + config.warmupSeconds * 1000;
  const until = measureFrom + config.seconds * 1000;
  recorder.window(measureFrom, until);
  const loops = Array.from({ length: config.concurrency }, (_, loop) => {
    const mine = config.players.filter((_, index) => index % config.concurrency === loop);
    return new VirtualPlatform(config, mine, client.post, recorder, seededRandom(config.seed + loop));
  });
  setTimeout(() => void tell({ type: "measuring" }), measureFrom - start);
  setTimeout(() => void tell({ type: "measured" }), until - start);
  await Promise.all(loops.map((loop) => loop.run(until)));
  client.close();
  await tell({ type: "summary", summary: recorder.summary() });
}

process.once("message", (message: unknown) => {
  run(loadConfig.parse(message))
    .catch((error: unknown) => tell({ type: "error", message: String(error) }))
    .finally(() => process.disconnect());
});
