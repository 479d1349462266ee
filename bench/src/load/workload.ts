import { randomUUID } from "node:crypto";
import { betBody, closeBody, type Player, settleBody, signedHeaders } from "./bodies.ts";
import type { Acknowledged, LoadConfig } from "./config.ts";
import type { Answer } from "./http-client.ts";
import type { Recorder } from "./recorder.ts";

type Post = (path: string, body: string, headers: Record<string, string>) => Promise<Answer>;

/** A small seeded PRNG (mulberry32): the same seed gives both sides the same sequence of choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One virtual platform connection: rounds for its own players, one at a time, as the platform
 * plays them: BET, then WIN (or ROLL_BACK, `rollbackRate` of the time), then (`closeRounds`) CLOSE_ROUND. Each
 * request is resent with the same bytes `duplicateRate` of the time, as a platform retry would be.
 */
export class VirtualPlatform {
  private next = 0;

  constructor(
    private readonly config: LoadConfig,
    private readonly players: Player[],
    private readonly post: Post,
    private readonly recorder: Recorder,
    private readonly random: () => number,
  ) {}

  async run(until: number): Promise<void> {
    while (performance.now() < until) {
      const player = this.players[this.next++ % this.players.length] as Player;
      await this.round(player);
      this.recorder.cycles += 1;
    }
  }

  private async round(player: Player): Promise<void> {
    const roundId = `bench-${randomUUID()}`;
    const stake = 100 * (1 + Math.floor(this.random() * 50));
    const betId = randomUUID();
    const bet = await this.send("/withdraw", "BET", -stake, betBody(player, roundId, betId, stake));
    if (bet !== 200) return;
    const rollBack = this.random() < this.config.rollbackRate;
    const payout = rollBack ? stake : Math.floor((stake * (110 + Math.floor(this.random() * 390))) / 100);
    const action = rollBack ? "ROLL_BACK" : "WIN";
    await this.send("/deposit", action, payout, settleBody(player, roundId, betId, payout, action));
    if (!this.config.closeRounds) return;
    await this.send("/deposit", "CLOSE_ROUND", 0, closeBody(roundId, stake, rollBack ? 0 : payout / stake));
  }

  /** Sends one signed callback (twice, now and then) and records it; returns the first status. */
  private async send(
    path: string,
    action: Acknowledged["action"],
    amount: number,
    body: Record<string, unknown>,
  ): Promise<number> {
    const raw = JSON.stringify(body);
    const headers = signedHeaders(raw, this.config);
    const first = await this.timed(path, raw, headers, action);
    if (first.status === 200) this.acknowledge(action, amount, first.body);
    if (this.random() < this.config.duplicateRate) {
      this.recorder.duplicatesSent += 1;
      const again = await this.timed(path, raw, headers, "resent");
      if (first.status === 200 && (again.status !== 200 || again.body !== first.body))
        this.recorder.duplicateMismatches += 1;
    }
    return first.status;
  }

  private async timed(
    path: string,
    raw: string,
    headers: Record<string, string>,
    action: string,
  ): Promise<Answer> {
    const started = performance.now();
    const answer = await this.post(path, raw, headers);
    const ended = performance.now();
    this.recorder.record(ended, ended - started, answer.status, action);
    return answer;
  }

  private acknowledge(action: Acknowledged["action"], amount: number, text: string): void {
    const data = (JSON.parse(text) as { data: { operator_tx_id: string; provider_tx_id: string } }).data;
    this.recorder.acknowledged.push({
      action,
      providerTxId: data.provider_tx_id,
      operatorTxId: data.operator_tx_id,
      amount: String(amount),
    });
  }
}
