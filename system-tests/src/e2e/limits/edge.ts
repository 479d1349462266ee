import type { LimitName } from "@wallet/contracts/limits";
import type { Width } from "@wallet/contracts/testing/limit-strings";
import type { Answer } from "./edge-world.ts";

/** One entry point refusing a value one past its limit. */
export interface Refusal<V> {
  entry: string;
  /** The field it names: a 400 `<field>: must be at most <max> characters` (ids and texts). */
  field?: string;
  /** Or the whole answer it must give (a 413, a 401, another wording of a number's range). */
  answer?: Answer;
  send: (value: V) => Promise<Answer>;
  /** Rows it keeps on purpose, beside a refused close: a refused credit's answer, for its resends. */
  stores?: "idempotency_records";
  /** What must also hold once refused (a refused close stored without its round, say). */
  afterwards?: (value: V) => Promise<void>;
}

/**
 * A limit driven through every entry point that takes it: `taken` sends the value at the limit
 * everywhere (asserting each answer and what is kept, byte for byte; `fresh` draws another value of
 * the same kind where one is used up), `refusals` send the value one past it, each alone.
 */
export interface Edges<V> {
  taken: (value: V, fresh: () => V) => Promise<void>;
  refusals: Refusal<V>[];
}

/**
 * How a limit is driven: strings of every width at its maximum in code points (or bytes), each width
 * filling a body of its size, values (numbers, counts), a token of its one shape; or, where no entry
 * point outside can reach it, by the unit test named.
 */
export type Drive = { limit: LimitName } & (
  | { by: "code points" | "bytes" | "token"; edges: Edges<string> /** Draws per width (2). */; runs?: number }
  | { by: "width"; edges: Edges<Width> }
  | { by: "value"; at: readonly [number, number]; edges: Edges<number> }
  | { by: "unit"; test: string }
);
