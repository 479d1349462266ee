import { z } from "zod";

/** One operator's players for one close, sent by the orchestrator over IPC (no secret in argv or logs). */
export const playersConfig = z.object({
  /** The gateway under test. */
  target: z.string().url(),
  publicKey: z.string().min(1),
  secretKey: z.string().min(1),
  players: z.array(z.object({ userId: z.string(), sessionToken: z.string() })).min(1),
  /** Closed loops, each playing rounds for its share of the players. */
  concurrency: z.number().int().min(1),
  /** Pause after each round (the idle players: 20 ms; the load: none). */
  paceMs: z.number().int().min(0),
  /** Ask /balance after each round (the idle players do, as the end-to-end large-close test's). */
  balance: z.boolean(),
  /** The platform's resend policy: a 5xx or timeout is resent after base, 2×base, 4×base… */
  resendBaseMs: z.number().int().min(1),
  maxSends: z.number().int().min(1),
  timeoutMs: z.number().int().positive(),
  seed: z.number().int(),
});
export type PlayersConfig = z.infer<typeof playersConfig>;

/** One send: when it was answered (ms since the epoch), how long it took, its status (0: timeout). */
export type SendRecord = [answeredAt: number, latencyMs: number, status: number, callback: number];
/** One callback: the status of its last send, and how many sends it took (at most maxSends). */
export type CallbackRecord = [finalStatus: number, sends: number];

export interface PlayersResult {
  sends: SendRecord[];
  callbacks: CallbackRecord[];
}

/** From the players' process to the orchestrator. */
export type PlayersMessage =
  | { type: "playing" }
  | ({ type: "done" } & PlayersResult)
  | { type: "error"; message: string };

/** From the orchestrator: stop starting rounds, finish the resends under way, report. */
export type PlayersCommand = { type: "stop" };
