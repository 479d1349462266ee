import { percentile } from "@wallet/telemetry/percentiles";

/** One callback as the platform finally saw it, after its retries: what fault-injection checks against. */
export interface SeenAnswer {
  label: string;
  operatorId: number;
  providerTxId: string | null;
  userId: string | null;
  amount: number | null;
  /** Final HTTP status, 0 when no answer at all. */
  status: number;
  attempts: number;
  /** The wallet's own id for it (data.operator_tx_id) from a 200 answer. */
  operatorTxId: string | null;
  /** The balance a 200 reported (`reportedBalance`): `/auth`'s balance, `/balance`'s amount, a transfer's new_balance. */
  balance: number | null;
  /** The round (`action_id`, as the contract names it). */
  roundId: string | null;
  /** The callback's path and the exact bytes sent, and the exact bytes of the final answer: a resend must get them again. */
  path: string;
  request: string;
  reply: string;
  /** When the first attempt was sent (ms since the epoch): the operation's invocation in a campaign's history. */
  invokedAt: number;
  /** When the final answer arrived (ms since the epoch): what a restore point or a failover is compared with. */
  answeredAt: number;
  /** The bet a WIN, FREE_BET_WIN or ROLL_BACK settles (`withdraw_provider_tx_id`), else null. */
  settles: string | null;
}

/** What the simulator saw: callbacks by action and status, latencies, rounds. */
export class SimStats {
  rounds = 0;
  roundsClosed = 0;
  roundsVoided = 0;
  retries = 0;
  /** Replies that did not fit their operation's schema in the callback catalog: a wallet bug. */
  malformedReplies = 0;
  /** Rounds left unclosed because a per-bet callback was never acknowledged with 200. */
  roundsUnclosable = 0;
  /** Callbacks still unanswered or answered 5xx after every attempt: the platform gave up on them. */
  gaveUp = 0;
  readonly byLabel = new Map<string, number>();
  /** Final outcome of every callback, in the order they finished; too big for toJSON(). */
  readonly answers: SeenAnswer[] = [];
  private readonly latencies: number[] = [];

  record(label: string, status: number, ms: number, retry: boolean): void {
    const key = `${label} ${status === 0 ? "no answer" : status}`;
    this.byLabel.set(key, (this.byLabel.get(key) ?? 0) + 1);
    this.latencies.push(ms);
    if (retry) this.retries += 1;
  }

  /** Records a callback's final outcome, once, after its last attempt. */
  answered(answer: SeenAnswer): void {
    this.answers.push(answer);
    if (answer.status === 0 || answer.status >= 500) this.gaveUp += 1;
  }

  percentile(q: number): number {
    if (this.latencies.length === 0) return 0;
    return percentile(Float64Array.from(this.latencies).sort(), q);
  }

  toJSON() {
    return {
      rounds: this.rounds,
      roundsClosed: this.roundsClosed,
      roundsVoided: this.roundsVoided,
      roundsUnclosable: this.roundsUnclosable,
      callbacks: this.latencies.length,
      retries: this.retries,
      malformedReplies: this.malformedReplies,
      gaveUp: this.gaveUp,
      byStatus: Object.fromEntries([...this.byLabel].sort()),
      latencyMs: {
        p50: round(this.percentile(0.5)),
        p99: round(this.percentile(0.99)),
        max: round(this.percentile(1)),
      },
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
