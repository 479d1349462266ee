/**
 * An in-memory model of one player's wallet under the contract's rules, for property tests:
 * given the same requests it predicts each status and balance the real ledger must answer.
 */
export type ModelBet = {
  amount: bigint;
  round: string;
  status: "open" | "won" | "rolled_back" | "tombstone";
};

export interface Prediction {
  status: number;
  /** Balance the response reports (200) and the wallet holds afterwards. */
  balance: bigint;
  /** For a rollback of an already-refunded bet: the key whose first answer is replayed. */
  replaysKeyOf?: string;
}

export class WalletModel {
  balance: bigint;
  readonly bets = new Map<string, ModelBet>();
  /** provider_tx_id of the rollback that first refunded (or tombstoned) each bet. */
  readonly firstRollback = new Map<string, string>();

  constructor(
    opening: bigint,
    private readonly maxbet: bigint,
  ) {
    this.balance = opening;
  }

  bet(betId: string, amount: bigint, round: string): Prediction {
    const known = this.bets.get(betId);
    if (known?.status === "tombstone") return { status: 200, balance: this.balance };
    if (amount <= 0n) return { status: 400, balance: this.balance };
    if (this.stakedInRound(round) + amount > this.maxbet) return { status: 400, balance: this.balance };
    if (amount > this.balance) return { status: 402, balance: this.balance };
    this.balance -= amount;
    this.bets.set(betId, { amount, round, status: "open" });
    return { status: 200, balance: this.balance };
  }

  win(betId: string, amount: bigint): Prediction {
    const bet = this.bets.get(betId);
    if (!bet || bet.status === "tombstone" || bet.status === "rolled_back")
      return { status: 400, balance: this.balance };
    this.balance += amount;
    bet.status = "won";
    return { status: 200, balance: this.balance };
  }

  rollback(rollbackId: string, betId: string, amount: bigint, round: string): Prediction {
    const bet = this.bets.get(betId);
    if (!bet) {
      this.bets.set(betId, { amount, round, status: "tombstone" });
      this.firstRollback.set(betId, rollbackId);
      return { status: 200, balance: this.balance };
    }
    if (bet.status === "rolled_back" || bet.status === "tombstone") {
      return { status: 200, balance: this.balance, replaysKeyOf: this.firstRollback.get(betId) };
    }
    if (bet.status === "won") return { status: 400, balance: this.balance };
    // Another amount is marked, not refused: what the bet took goes back (anomalies.ts).
    this.balance += bet.amount;
    bet.status = "rolled_back";
    this.firstRollback.set(betId, rollbackId);
    return { status: 200, balance: this.balance };
  }

  private stakedInRound(round: string): bigint {
    let total = 0n;
    for (const bet of this.bets.values()) {
      if (bet.round === round && (bet.status === "open" || bet.status === "won")) total += bet.amount;
    }
    return total;
  }
}
