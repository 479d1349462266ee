import { createHash, type Hash } from "node:crypto";
import { type JsonEvents, StrictJsonStream, type StringSink, type ValueKind } from "./json-stream.ts";
import { firstNumberPart, NumberPart, nextNumberPart } from "./number-grammar.ts";

/** A check of one number of the array, given its source text (`millisProblem`, `coefficientProblem`). */
export type ItemCheck = (value: unknown, written: () => string) => string | undefined;

/** The first item that is not a number, by the type its check would be given. */
export interface NonNumber {
  index: number;
  /** A value of the item's type: the checks read only the type of what is not a number. */
  sample: unknown;
}

/** Characters of written-back text per piece: a close's arrays are kept as a list of these. */
const PIECE_CHARS = 64 * 1024;

const samples: Partial<Record<ValueKind, unknown>> = {
  object: {},
  array: [],
  string: "",
  true: true,
  false: false,
  null: null,
};

/** Where the fast reading of `[n, n, …]` is. */
enum F {
  Lead,
  First,
  Item,
  Number,
  After,
  End,
  /** Not JSON, or not an array: nothing more to learn but the digest. */
  Over,
  /** An item that is no number: the general JSON reader goes on (`StrictJsonStream`). */
  General,
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * One attribute value of a streamed CLOSE_ROUND, read as the JSON array its text carries
 * (`readArray` in `close-round.ts`) without ever holding the text: whether it is a JSON array, the
 * first item that is not a number, the first problem each check finds, the item count, and the
 * numbers written back as JSON (`String(n)`: what `stringifyJson` and `JSON.stringify` write for the
 * arrays the ledger stores) while they can still be of use. Two values are the same string when
 * their digests are. A list of numbers, the case that weighs, is read by a loop of its own that
 * copies runs of the text as they are (a number written as `String(n)` would write it is its own
 * written-back text) and allocates nothing per item; the first item that is no number hands the rest
 * to the general JSON reader, which tells whether the whole is still JSON.
 */
export class StreamedArrayText implements StringSink, JsonEvents {
  private readonly hash: Hash = createHash("sha256");
  private state = F.Lead;
  private general: StrictJsonStream | undefined;
  private depth = 1;
  private scalarOpen = false;
  private syntaxOk = true;
  private rootIsArray = false;
  /** The number being read: its grammar state, its text so far (when it spans pieces), its start. */
  private numberPart = NumberPart.Int;
  private numberHead = "";
  private numberFrom = 0;
  private plainDigits = true;
  private token = "";
  /** Items of the root array. */
  count = 0;
  nonNumber: NonNumber | undefined;
  /** The first problem of each check (in the order of `checks`), with its item's index. */
  readonly problems: Array<{ index: number; problem: string } | undefined>;
  /** The written-back text so far, in pieces, and the piece being filled; dropped once of no use. */
  pieces: string[] = [];
  private filling = "";
  private useless = false;
  digest = "";
  /** The string held exactly one JSON value (known at `finish`). */
  valid = false;

  constructor(private readonly checks: readonly ItemCheck[]) {
    this.problems = checks.map(() => undefined);
  }

  append(chars: string): void {
    this.hash.update(chars, "utf16le");
    if (this.state === F.General) this.general?.write(chars);
    else if (this.state !== F.Over) this.scan(chars);
  }

  /** The string ended: its digest, whether it held one JSON value, the last piece of its text. */
  finish(): void {
    this.digest = this.hash.digest("hex");
    if (this.state === F.General) this.valid = (this.general as StrictJsonStream).end() && this.syntaxOk;
    else {
      // The end of the text ends a number, or shows it was none (`[1.`).
      if (this.state === F.Number && !this.numberStep(-1)) this.endNumber("", 0);
      this.valid = this.state === F.End;
    }
    if (this.valid && !this.useless) {
      this.pieces.push(this.filling);
      this.filling = "";
    } else this.discard();
  }

  get isArray(): boolean {
    return this.valid && this.rootIsArray;
  }

  /** The first problem `check` found, with its item's index. */
  firstProblem(check: ItemCheck): { index: number; problem: string } | undefined {
    return this.problems[this.checks.indexOf(check)];
  }

  /** The fast reading of a piece of `[n, n, …]`; `from` marks text not yet written back. */
  private scan(text: string) {
    let from = 0;
    let i = 0;
    const n = text.length;
    if (this.state === F.Number) this.numberFrom = 0;
    while (i < n) {
      const code = text.charCodeAt(i);
      switch (this.state) {
        case F.Number: {
          if (this.numberStep(code)) {
            i++;
            continue;
          }
          // The number ended at `i`: written back as is, or as String(n), then `from` moves past it.
          from = this.endNumber(text, i, from);
          continue;
        }
        case F.Lead:
          if (isSpace(code)) {
            from = i + 1;
            break;
          }
          if (code !== 0x5b) return this.over();
          this.rootIsArray = true;
          this.state = F.First;
          break;
        case F.First:
        case F.Item:
          if (isSpace(code)) {
            from = this.writeBack(text, from, i) + 1;
            break;
          }
          if (code === 0x5d && this.state === F.First) {
            this.state = F.End;
            break;
          }
          if (code === 0x2d || isDigit(code)) {
            this.beginNumber(code, i);
            break;
          }
          // Not a number (or not JSON): the general reader takes the rest, from this item on.
          this.writeBack(text, from, i);
          return this.toGeneral(text.slice(i));
        case F.After:
          if (isSpace(code)) {
            from = this.writeBack(text, from, i) + 1;
            break;
          }
          if (code === 0x2c) this.state = F.Item;
          else if (code === 0x5d) this.state = F.End;
          else return this.over();
          break;
        case F.End:
          if (!isSpace(code)) return this.over();
          from = this.writeBack(text, from, i) + 1;
          break;
        default:
          return;
      }
      i++;
    }
    if (this.state === F.Number) {
      // A number running into the next piece: kept whole, written back once it ends.
      this.writeBack(text, from, this.numberFrom);
      this.numberHead += text.slice(this.numberFrom);
      this.numberFrom = 0;
    } else this.writeBack(text, from, n);
  }

  private beginNumber(code: number, at: number): void {
    this.state = F.Number;
    this.numberPart = firstNumberPart(code);
    this.plainDigits = code !== 0x2d;
    this.numberHead = "";
    this.numberFrom = at;
  }

  /** One more character of a number; false when it is not one (the number ended before it). */
  private numberStep(code: number): boolean {
    const next = nextNumberPart(this.numberPart, code);
    if (next === "ended") return false;
    if (next === "invalid") this.over();
    else {
      // Only digits after a digit keep it a plain integer (`String(n)` writes it back as it is).
      if (next !== NumberPart.Int && next !== NumberPart.Zero) this.plainDigits = false;
      this.numberPart = next;
    }
    return true;
  }

  /** The number ended at `end` of `text`: checked and written back; returns where output resumes. */
  private endNumber(text: string, end: number, from = 0): number {
    if (this.state !== F.Number) return end; // it proved not to be a number
    this.state = F.After;
    const written = this.numberHead + text.slice(this.numberFrom, end);
    const value = this.check(this.count++, written);
    if (!this.problems.some((problem) => !problem)) this.discard();
    if (this.useless) return end;
    // Up to 15 digits, no sign, point or exponent: String(n) writes the same (JSON has no leading zeros).
    const same = (this.plainDigits && written.length <= 15) || String(value) === written;
    if (same && this.numberHead === "") return from;
    this.writeBack(text, from, this.numberFrom);
    this.add(same ? written : String(value));
    return end;
  }

  private readonly writtenToken = () => this.token;

  /** Copies `text[from, to)` into the written-back text; returns `to`. */
  private writeBack(text: string, from: number, to: number): number {
    if (!this.useless && to > from) this.add(text.slice(from, to));
    return to;
  }

  private add(chars: string): void {
    this.filling += chars;
    if (this.filling.length >= PIECE_CHARS) {
      this.pieces.push(this.filling);
      this.filling = "";
    }
  }

  /** Hands the rest to the general reader, inside the root array before an item. */
  private toGeneral(rest: string) {
    const first = this.state === F.First;
    this.state = F.General;
    this.general = new StrictJsonStream(this, undefined, first ? "first-item" : "next-item");
    this.general.write(rest);
  }

  private over() {
    this.state = F.Over;
    this.syntaxOk = false;
    this.discard();
  }

  private discard(): void {
    this.useless = true;
    this.pieces = [];
    this.filling = "";
  }

  // The general reader's events: past the fast reading, only the count and the first item that is no
  // number are of use (no text is written back once an item is no number).
  begin(kind: ValueKind): undefined {
    if (this.depth === 1) {
      const index = this.count++;
      if (kind !== "number" && !this.nonNumber) {
        this.nonNumber = { index, sample: samples[kind] };
        this.discard();
      }
    }
    if (kind === "object" || kind === "array") this.depth += 1;
    else this.scalarOpen = true;
    return undefined;
  }

  key(): void {}

  end(): void {
    if (this.scalarOpen) this.scalarOpen = false;
    else this.depth -= 1;
  }

  number(text: string): void {
    if (this.depth === 1) this.check(this.count - 1, text);
  }

  /** Item `index`, written `text`, through each check that has found nothing yet; its value. */
  private check(index: number, text: string): number {
    const value = Number(text);
    this.token = text;
    for (let k = 0; k < this.checks.length; k++) {
      if (this.problems[k]) continue;
      const problem = (this.checks[k] as ItemCheck)(value, this.writtenToken);
      if (problem) this.problems[k] = { index, problem };
    }
    return value;
  }
}
