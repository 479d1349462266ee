import { randomUUID } from "node:crypto";
import { betBody, type Player, settleBody, signedHeaders } from "../../load/bodies.ts";
import type { Answer } from "../../load/http-client.ts";
import { seededRandom } from "../../load/workload.ts";
import type { CallbackRecord, PlayersConfig, SendRecord } from "./config.ts";

type Post = (path: string, body: string, headers: Record<string, string>) => Promise<Answer>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Other players, played as the platform plays them: rounds of BET then WIN (and /balance for the
 * idle players), each callback resent with the same bytes after a 5xx or a timeout, base, 2×base…
 * apart, up to `maxSends` sends. While a round waits to resend, its loop plays another player, as
 * the platform goes on with other rounds: a 5xx does not lighten the load. Every send is recorded,
 * so the orchestrator can count the statuses of any window and see whether each 5xx was absorbed.
 */
export class PlayingPlatform {
  readonly sends: SendRecord[] = [];
  readonly callbacks: CallbackRecord[] = [];
  private stopping = false;
  private readonly busy = new Set<string>();
  private readonly underWay = new Set<Promise<void>>();
  private readonly random: () => number;

  constructor(
    private readonly config: PlayersConfig,
    private readonly post: Post,
    private readonly onFirstAnswer: () => void,
  ) {
    this.random = seededRandom(config.seed);
  }

  /** Plays until `stop()`, then waits for every round under way (resends included). */
  async run(): Promise<void> {
    const { concurrency, players } = this.config;
    const loops = Array.from({ length: concurrency }, (_, loop) =>
      this.loop(players.filter((_, index) => index % concurrency === loop)),
    );
    await Promise.all(loops);
    while (this.underWay.size > 0) await Promise.all([...this.underWay]);
  }

  stop(): void {
    this.stopping = true;
  }

  private async loop(mine: Player[]): Promise<void> {
    let next = 0;
    while (!this.stopping) {
      const free = mine
        .map((_, offset) => (next + offset) % mine.length)
        .find((at) => !this.isBusy(mine[at]));
      const player = free === undefined ? undefined : mine[free];
      if (free === undefined || !player) {
        await sleep(50); // every player of this loop waits to resend
        continue;
      }
      next = free + 1;
      this.busy.add(player.userId);
      // Resolved when the round ends, or earlier when it starts waiting to resend (it goes on alone).
      await new Promise<void>((detached) => {
        const round = this.round(player, detached).finally(() => {
          this.busy.delete(player.userId);
          this.underWay.delete(round);
          detached();
        });
        this.underWay.add(round);
      });
      if (this.config.paceMs > 0) await sleep(this.config.paceMs);
    }
  }

  private isBusy(player: Player | undefined): boolean {
    return player === undefined || this.busy.has(player.userId);
  }

  private async round(player: Player, detach: () => void): Promise<void> {
    const roundId = `closes-${randomUUID()}`;
    const stake = 100 * (1 + Math.floor(this.random() * 50));
    const betId = randomUUID();
    const bet = await this.call("/withdraw", betBody(player, roundId, betId, stake), detach);
    if (bet === 200) {
      const payout = Math.floor((stake * (110 + Math.floor(this.random() * 390))) / 100);
      await this.call("/deposit", settleBody(player, roundId, betId, payout), detach);
    }
    if (this.config.balance) await this.call("/balance", { user_id: player.userId }, detach);
  }

  /** Sends one callback as the platform does; resolves with the status of its last send. */
  private async call(path: string, body: Record<string, unknown>, detach: () => void): Promise<number> {
    const raw = JSON.stringify(body);
    const headers = signedHeaders(raw, this.config);
    const id = this.callbacks.length;
    this.callbacks.push([0, 0]);
    let status = 0;
    let sends = 0;
    while (sends < this.config.maxSends) {
      if (sends > 0) {
        detach();
        await sleep(this.config.resendBaseMs * 2 ** (sends - 1));
      }
      const started = performance.now();
      status = (await this.post(path, raw, headers)).status;
      const ended = performance.now();
      sends += 1;
      this.sends.push([performance.timeOrigin + ended, ended - started, status, id]);
      if (this.sends.length === 1) this.onFirstAnswer();
      if (status !== 0 && status < 500) break;
    }
    this.callbacks[id] = [status, sends];
    return status;
  }
}
