import { isAnswered, type Operation } from "../history/operation.ts";

/**
 * A history as the search walks it: invocations and completions in one doubly linked list, in time
 * order, an invocation before a completion at the same instant (they overlap: real-time order needs
 * A's completion strictly before B's invocation). Placing an operation takes both its events out;
 * undoing puts them back where they were.
 */
export interface Event {
  index: number;
  call: boolean;
  prev: Event | null;
  next: Event | null;
  /** A call's completion (null for an unanswered operation, which nothing waits for). */
  completion: Event | null;
}

export function eventList(operations: readonly Operation[]): { head: Event; calls: Event[] } {
  const timed: Array<{ at: number; event: Event }> = [];
  const calls = operations.map((operation, index) => {
    const call: Event = { index, call: true, prev: null, next: null, completion: null };
    timed.push({ at: operation.invokedAt, event: call });
    if (isAnswered(operation) && operation.completedAt !== null) {
      call.completion = { index, call: false, prev: null, next: null, completion: null };
      // A clock that stepped back must not put a completion before its own invocation.
      timed.push({ at: Math.max(operation.invokedAt, operation.completedAt), event: call.completion });
    }
    return call;
  });
  timed.sort(
    (a, b) => a.at - b.at || Number(b.event.call) - Number(a.event.call) || a.event.index - b.event.index,
  );
  const head: Event = { index: -1, call: false, prev: null, next: null, completion: null };
  let last = head;
  for (const { event } of timed) {
    event.prev = last;
    last.next = event;
    last = event;
  }
  return { head, calls };
}

/** Takes a placed operation's invocation and completion out of the list. */
export function lift(call: Event): void {
  unlink(call);
  if (call.completion) unlink(call.completion);
}

/** Puts them back, in the reverse order, so every neighbour pointer is what it was. */
export function restore(call: Event): void {
  if (call.completion) relink(call.completion);
  relink(call);
}

function unlink(event: Event): void {
  if (event.prev) event.prev.next = event.next;
  if (event.next) event.next.prev = event.prev;
}

function relink(event: Event): void {
  if (event.prev) event.prev.next = event;
  if (event.next) event.next.prev = event;
}
