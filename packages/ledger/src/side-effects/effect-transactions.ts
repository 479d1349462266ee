import type { SideEffectTopic } from "@wallet/contracts/side-effects";
import type { ClosedRound, PlayerInRound } from "./round-activity.ts";

/**
 * The most rows one side-effect transaction writes, counted as units: an event's receipt is one, and
 * for loyalty, tournaments and RG each player it moves one more (an award and a balance, a score per
 * running tournament, a day's counters). A job is a relay turn's rounds of one topic (up to
 * OUTBOX_RELAY_BATCH) and a round's players are bounded by nothing but its close's bets (up to
 * 620,000 in a close of 8 MiB): applied as one transaction, a job grew with them past every server's
 * packet and transaction limits. At 1,000 a transaction's writes stay a few MiB (`size-budgets.ts`).
 * Not bounded here: a player's tournament scores are one unit however many tournaments run on the
 * round's game at once (the operator creates them; read inside the transaction, after this split).
 */
export const effectUnitsPerTransaction = 1_000;

/** A player whose figures move an effect: one with none is skipped by every effect alike. */
const moves = (player: PlayerInRound) => player.bets !== 0 || player.staked !== 0n || player.won !== 0n;

/**
 * A job's rounds as the transactions that apply them, in order, each of at most `most` units.
 * Rounds go together while they fit. A round with more players than one transaction takes is applied
 * in parts of its players (in id order), each a transaction of its own with a receipt of its own,
 * `<event id>#<part>/<parts>`; the last part's receipt is the event's own, written only once every
 * part before it is applied, so the event counts applied (and its outbox row is marked) only when
 * whole, and a redelivery skips the parts already done. The parts are the same at every delivery: a
 * close's players are those of the round at its close (`closedRoundOf`), whatever came later.
 * Reporting writes a row per round, not per player: its rounds are never split.
 */
export function effectTransactions(
  topic: SideEffectTopic,
  rounds: ClosedRound[],
  most = effectUnitsPerTransaction,
): ClosedRound[][] {
  const transactions: ClosedRound[][] = [];
  let current: ClosedRound[] = [];
  let units = 0;
  const cut = () => {
    if (current.length > 0) transactions.push(current);
    current = [];
    units = 0;
  };
  for (const round of rounds) {
    const players = topic === "reporting" ? [] : round.players.filter(moves);
    const weight = 1 + players.length;
    if (weight > most) {
      cut();
      for (const part of partsOf(round, players, most - 1)) transactions.push([part]);
      continue;
    }
    if (units + weight > most) cut();
    current.push(round);
    units += weight;
  }
  cut();
  return transactions;
}

/** A round too large for one transaction, as parts of at most `size` players, the last under the event's id. */
function partsOf(round: ClosedRound, players: PlayerInRound[], size: number): ClosedRound[] {
  const count = Math.ceil(players.length / size);
  const { eventId } = round.event;
  return Array.from({ length: count }, (_, index) => {
    const slice = players.slice(index * size, (index + 1) * size);
    if (index === count - 1) return { ...round, players: slice };
    return {
      ...round,
      event: { ...round.event, eventId: `${eventId}#${index + 1}/${count}` },
      players: slice,
      partOf: eventId,
    };
  });
}
