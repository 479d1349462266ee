import { getEntry } from "./wallet-model/persistent-map.ts";
import { openWallet, type WalletState } from "./wallet-model/state.ts";
import { stepWallet } from "./wallet-model/step.ts";

/**
 * An in-memory model of one player's wallet under the contract's rules, for property tests: given the
 * same requests it predicts each status and balance the real ledger must answer. A mutable face on the
 * pure model in `wallet-model/` (`stepWallet`), which the fault campaign's checker runs too; each call
 * here is a request under a new idempotency key.
 */
export interface Prediction {
  status: number;
  /** Balance the response reports (200) and the wallet holds afterwards. */
  balance: bigint;
  /** For a rollback of an already-refunded bet: the key whose first answer is replayed. */
  replaysKeyOf?: string;
}

export class WalletModel {
  private state: WalletState;
  private requests = 0;

  constructor(opening: bigint, maxbet: bigint) {
    this.state = openWallet({ balance: opening, maxbet });
  }

  get balance(): bigint {
    return this.state.balance;
  }

  bet(betId: string, amount: bigint, round: string): Prediction {
    return this.send({ kind: "BET", key: betId, body: betId, round, amount, currency: null });
  }

  win(betId: string, amount: bigint): Prediction {
    const round = getEntry(this.state.bets, betId)?.round ?? "";
    const key = this.newKey("win");
    return this.send({ kind: "WIN", key, body: key, round, amount, betKey: betId, currency: null });
  }

  rollback(rollbackId: string, betId: string, amount: bigint, round: string): Prediction {
    const bet = getEntry(this.state.bets, betId);
    const refunded = bet?.status === "rolled_back" || bet?.status === "tombstone";
    const body = rollbackId;
    const prediction = this.send({
      kind: "ROLL_BACK",
      key: rollbackId,
      body,
      round,
      amount,
      betKey: betId,
      currency: null,
    });
    return refunded && bet?.rollbackKey ? { ...prediction, replaysKeyOf: bet.rollbackKey } : prediction;
  }

  private send(command: Parameters<typeof stepWallet>[1]): Prediction {
    const { answer, state } = stepWallet(this.state, command);
    this.state = state;
    return { status: answer.status, balance: state.balance };
  }

  private newKey(prefix: string): string {
    this.requests += 1;
    return `model-${prefix}-${this.requests}`;
  }
}
