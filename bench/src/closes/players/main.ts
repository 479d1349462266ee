import { httpPoster } from "../../load/http-client.ts";
import { type PlayersCommand, type PlayersMessage, playersConfig } from "./config.ts";
import { PlayingPlatform } from "./platform.ts";

/**
 * The other players' process (one operator's): started by the orchestrator with an IPC channel, it
 * receives its config, says when its first callback is answered, plays until told to stop, finishes
 * the resends under way and sends every send and callback it made.
 */
function tell(message: PlayersMessage): Promise<void> {
  // Resolves once the message is written: disconnecting earlier would drop a large report.
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()) ?? resolve());
}

process.once("message", (message: unknown) => {
  const config = playersConfig.parse(message);
  // Sockets for the loops and for the rounds waiting to resend beside them.
  const client = httpPoster(config.target, config.concurrency * 2, config.timeoutMs);
  const platform = new PlayingPlatform(config, client.post, () => void tell({ type: "playing" }));
  process.on("message", (command: PlayersCommand) => {
    if (command.type === "stop") platform.stop();
  });
  platform
    .run()
    .then(() => tell({ type: "done", sends: platform.sends, callbacks: platform.callbacks }))
    .catch((error: unknown) => tell({ type: "error", message: String(error) }))
    .finally(() => {
      client.close();
      process.disconnect();
    });
});
