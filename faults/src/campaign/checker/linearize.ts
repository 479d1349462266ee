import { type WalletState, walletFingerprint } from "@wallet/ledger/testing/wallet-model/state";
import { isAnswered, type Operation } from "../history/operation.ts";
import { type PreparedOperation, prepareOperations, stepOperation } from "../model/operation-step.ts";
import { type Event, eventList, lift, restore } from "./event-list.ts";

/**
 * Whether one player's operations admit a linearization: one sequential order, consistent with real
 * time (A before B when A completed before B was invoked), in which the wallet model gives every
 * answered operation its status and balance. An unanswered operation (no reply, or a 5xx) may take
 * effect at any point after its invocation, or never, and at most once.
 *
 * Wing & Gong's search with Lowe's memoization, as in Porcupine and knossos: at each point, the
 * candidates are the operations invoked before the first completion still waiting; place one whose
 * answer the model gives, go on, undo it when nothing can follow. A (set of operations placed, model
 * state) pair met before is not explored again. An unanswered operation has no completion, so nothing
 * waits for it: never placed, it never happened.
 *
 * Which unanswered operations happened is a subset-sum question, exponential at worst. So answered
 * candidates are tried first, and the search first allows at most one unanswered operation in a row
 * (between two answered ones): a history where each lost reply's effect shows before the next one's is
 * decided in about one step per operation. Only if that finds nothing does the full search run, which
 * alone may say "violation".
 */
export type Verdict = "linearizable" | "violation" | "unknown";

export interface Linearization {
  verdict: Verdict;
  /** Model steps taken; past the budget the verdict is "unknown". */
  steps: number;
  /** When linearizable: the ids of the operations placed, in the order found (unplaced ones never took effect). */
  order?: number[];
  /** When linearizable: the wallet after that order. */
  state?: WalletState;
}

/** About 5 to 10 s of search: some hundred times what a 2,000-operation history takes. */
export const DEFAULT_STEP_BUDGET = 250_000;

export function linearize(
  operations: readonly Operation[],
  initial: WalletState,
  stepBudget = DEFAULT_STEP_BUDGET,
): Linearization {
  let steps = 0;
  // With at most one unanswered operation, the first pass is already the full search.
  const unanswered = operations.filter((operation) => !isAnswered(operation)).length;
  const passes = unanswered > 1 ? [1, Number.POSITIVE_INFINITY] : [Number.POSITIVE_INFINITY];
  for (const unansweredInARow of passes) {
    const search = new Search(operations, initial, unansweredInARow, stepBudget - steps);
    const result = search.run();
    steps += result.steps;
    if (result.verdict !== "violation") return { ...result, steps };
  }
  return { verdict: "violation", steps };
}

interface Frame {
  state: WalletState;
  fingerprint: string;
  /** Operation indices placeable here: answered ones first, then unanswered. */
  candidates: number[];
  next: number;
  /** Unanswered operations placed since the last answered one. */
  unansweredRun: number;
  /** The candidate placed from this frame, undone when the search comes back to it. */
  placed: Event | null;
}

class Search {
  private readonly prepared: PreparedOperation[];
  private readonly head: Event;
  private readonly calls: Event[];
  /** The set placed, as two 32-bit lanes: the sum of each placed operation's two hashes. */
  private placedA = 0;
  private placedB = 0;
  private readonly seen = new Set<string>();
  private remaining: number;
  private steps = 0;

  constructor(
    private readonly operations: readonly Operation[],
    private readonly initial: WalletState,
    private readonly unansweredInARow: number,
    private readonly stepBudget: number,
  ) {
    this.prepared = prepareOperations(operations);
    ({ head: this.head, calls: this.calls } = eventList(operations));
    this.remaining = operations.filter(isAnswered).length;
  }

  run(): Linearization {
    const stack: Frame[] = [this.frame(this.initial, walletFingerprint(this.initial), 0)];
    while (this.remaining > 0) {
      const frame = stack.at(-1);
      if (!frame) return { verdict: "violation", steps: this.steps };
      if (frame.placed) this.unplace(frame.placed);
      frame.placed = null;
      const child = this.placeNext(frame);
      if (child === "budget") return { verdict: "unknown", steps: this.steps };
      if (child) stack.push(child);
      else stack.pop();
    }
    const order = stack.flatMap((frame) =>
      frame.placed ? [(this.operations[frame.placed.index] as Operation).id] : [],
    );
    return { verdict: "linearizable", steps: this.steps, order, state: stack.at(-1)?.state };
  }

  /** Places the frame's next candidate the model agrees with, and returns the frame after it. */
  private placeNext(frame: Frame): Frame | "budget" | undefined {
    while (frame.next < frame.candidates.length) {
      const index = frame.candidates[frame.next] as number;
      frame.next += 1;
      const operation = this.operations[index] as Operation;
      const answered = isAnswered(operation);
      if (!answered && frame.unansweredRun >= this.unansweredInARow) continue;
      if (this.steps >= this.stepBudget) return "budget";
      this.steps += 1;
      const step = stepOperation(frame.state, this.prepared[index] as PreparedOperation);
      if (!step.matches) continue;
      const fingerprint = walletFingerprint(step.state);
      // An unanswered operation that would change nothing now is better left unplaced: it stays
      // available, and every way on from here is open without it.
      if (!answered && fingerprint === frame.fingerprint) continue;
      const run = answered ? 0 : frame.unansweredRun + 1;
      this.count(index, 1);
      const bounded = Number.isFinite(this.unansweredInARow) ? `#${run}` : "";
      const memo = `${this.placedA}.${this.placedB}#${fingerprint}${bounded}`;
      if (this.seen.has(memo)) {
        this.count(index, -1);
        continue;
      }
      this.seen.add(memo);
      const call = this.calls[index] as Event;
      lift(call);
      if (answered) this.remaining -= 1;
      frame.placed = call;
      return this.frame(step.state, fingerprint, run);
    }
    return undefined;
  }

  /** Adds (1) or removes (-1) an operation from the placed set's hash. */
  private count(index: number, sign: 1 | -1): void {
    this.placedA = (this.placedA + sign * mix(index + 1)) >>> 0;
    this.placedB = (this.placedB + sign * mix(index + 0x9e3779b9)) >>> 0;
  }

  private unplace(call: Event): void {
    restore(call);
    this.count(call.index, -1);
    if (isAnswered(this.operations[call.index] as Operation)) this.remaining += 1;
  }

  /** A new point of the search: what may be placed next is what was invoked before the first completion left. */
  private frame(state: WalletState, fingerprint: string, unansweredRun: number): Frame {
    const answered: number[] = [];
    const unanswered: number[] = [];
    for (let event = this.head.next; event?.call; event = event.next) {
      (isAnswered(this.operations[event.index] as Operation) ? answered : unanswered).push(event.index);
    }
    return {
      state,
      fingerprint,
      candidates: [...answered, ...unanswered],
      next: 0,
      unansweredRun,
      placed: null,
    };
  }
}

/** A 32-bit mix of an integer (murmur3's finalizer): each operation's place in the set's hash. */
function mix(value: number): number {
  let hash = value >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
