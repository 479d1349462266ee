import type { WalletState } from "@wallet/ledger/testing/wallet-model/state";
import type { Operation } from "../history/operation.ts";
import { commandOf, stepOperation } from "../model/operation-step.ts";
import { openingState, type PlayerStart } from "./player-start.ts";
import { history, type Spec, startOf } from "./test-histories.ts";

/**
 * A seeded random history of one player for the checker's tests, answered by a correct wallet (the
 * model itself) in a true order it keeps: mostly one callback at a time, with operator adjustments
 * overlapping a BET (applied before or after it) and unanswered operations (applied or not).
 */
export function generatedHistory(
  seed: number,
  length: number,
): { operations: Operation[]; start: PlayerStart } {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
  const start = startOf(100_000n, { maxbet: 50_000n, freeBets: 2 });
  let truth: WalletState = openingState(start);
  const operations: Operation[] = [];
  const sent: Spec[] = [];
  const bets: Array<{ key: string; round: string }> = [];
  let clock = 1_000;

  const answer = (operation: Operation, applied = true) => {
    const step = stepOperation(truth, { operation, command: commandOf(operation), keepsAnswer: true });
    if (applied) truth = step.state;
    return step.answer;
  };
  const send = (spec: Spec, at: [number, number], applied?: boolean) => {
    const operation = history([{ ...spec, status: 200, at }])[0] as Operation;
    operation.id = operations.length;
    if (applied === undefined) {
      const { status, balance } = answer(operation);
      operation.status = status;
      // A 402's data carries the balance too (contract: BET beyond the balance).
      operation.balance = (status < 300 || status === 402) && balance !== null ? Number(balance) : null;
    } else {
      answer(operation, applied);
      operation.status = random() < 0.5 ? 0 : 503;
      operation.completedAt = operation.status === 0 ? null : at[1];
      operation.balance = null;
    }
    operations.push(operation);
    if (spec.key !== undefined && spec.kind !== "adjust") sent.push(spec);
    return operation;
  };

  for (let index = 0; operations.length < length; index += 1) {
    clock += 10;
    const round = `round-${Math.floor(index / 6)}`;
    const key = `tx-${index}`;
    const amount = 100 + Math.floor(random() * 2_000);
    const alone: [number, number] = [clock, clock + 5];
    const roll = random();
    if (roll < 0.35) {
      send({ kind: "BET", key, round, amount: random() < 0.05 ? 120_000 : amount, status: 200 }, alone);
      bets.push({ key, round });
    } else if (roll < 0.55) {
      const bet = pick(bets.slice(-3)) ?? { key: "none", round };
      const win = Math.floor(random() * 4_000);
      send({ kind: "WIN", key, round: bet.round, bet: bet.key, amount: win, status: 200 }, alone);
    } else if (roll < 0.6) {
      const bet = (random() < 0.3 ? undefined : pick(bets.slice(-3))) ?? { key: `unseen-${index}`, round };
      send({ kind: "ROLL_BACK", key, round: bet.round, bet: bet.key, amount, status: 200 }, alone);
    } else if (roll < 0.68) {
      send({ kind: "balance", status: 200 }, alone);
    } else if (roll < 0.72) {
      const earlier = pick(sent);
      if (earlier)
        send(
          random() < 0.8 ? earlier : { ...earlier, amount: (earlier.amount ?? 0) + 1, request: undefined },
          alone,
        );
    } else if (roll < 0.76) {
      send({ kind: "FREE_BET", key, round, amount: 0, status: 200 }, alone);
    } else if (roll < 0.79) {
      send({ kind: "FREE_BET_WIN", key, round, amount, status: 200 }, alone);
    } else if (roll < 0.81) {
      send({ kind: "grant-free-bets", count: 1 + Math.floor(random() * 3), status: 201 }, alone);
    } else if (roll < 0.99) {
      // An adjustment overlapping a BET: the wallet applied one of them first.
      const adjust: Spec = {
        kind: "adjust",
        key: `ref-${index}`,
        amount: random() < 0.7 ? amount : -amount,
        status: 201,
      };
      const bet: Spec = { kind: "BET", key, round, amount, status: 200 };
      const adjustAt: [number, number] = [clock, clock + 30];
      const betAt: [number, number] = [clock + 5, clock + 15];
      if (random() < 0.5) {
        send(adjust, adjustAt);
        send(bet, betAt);
      } else {
        const betOperation = send(bet, betAt);
        send(adjust, adjustAt);
        operations.splice(operations.length - 2, 2, operations.at(-1) as Operation, betOperation);
      }
      bets.push({ key, round });
      clock += 30;
    } else {
      send({ kind: "BET", key, round, amount, status: 0 }, [clock, clock + 40], random() < 0.5);
      bets.push({ key, round });
      clock += 40;
    }
  }
  operations.forEach((operation, id) => {
    operation.id = id;
  });
  return { operations: operations.slice(0, length), start };
}

/** A small seeded generator (mulberry32): the same seed, the same history. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
