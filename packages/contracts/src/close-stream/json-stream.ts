import { jsonDepthMax, jsonObjectKeysMax, tooDeep, tooManyKeys } from "../json-limits.ts";
import { firstNumberPart, NumberPart, nextNumberPart } from "./number-grammar.ts";
import { StrictProblems } from "./strict-problems.ts";

/** The kind of a JSON value as it begins. */
export type ValueKind = "object" | "array" | "string" | "number" | "true" | "false" | "null";

/** Where the characters of a string go, a run at a time (escapes decoded). */
export interface StringSink {
  append(chars: string): void;
}

/**
 * What a reader of the document is told, in text order: a value begins (a string's reader may ask
 * for its characters), a key of the innermost object is read, a value ends (a container at its
 * closing bracket).
 */
export interface JsonEvents {
  begin(kind: ValueKind): StringSink | undefined;
  key(name: string): void;
  end(): void;
  /** A number's text, just before its `end` (asked for only by a reader that has this). */
  number?(text: string): void;
}

enum S {
  Value,
  ValueOrEnd,
  KeyOrEnd,
  Key,
  Colon,
  After,
  String,
  Escape,
  Unicode,
  Number,
  Literal,
  Done,
  Error,
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const LONE_SURROGATE = "a string holds a lone UTF-16 surrogate";
const INVALID_UTF8 = "a string holds bytes that are not valid UTF-8";
/** `\uXXXX` escapes up to here stand for ASCII or C1 controls (`safe-json.ts`). */
const LAST_REFUSED_ESCAPE = 0x9f;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const isWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) =>
  isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A string being read: its strict problem under each reading of U+FFFD, its first `\u` escape. */
interface OpenString {
  isKey: boolean;
  sink: StringSink | undefined;
  /** The key's text (keys are always kept: they are checked for repeats). */
  keyText: string;
  /** Problem if the body's bytes were valid UTF-8 (a U+FFFD is then a character like any other). */
  problem?: string;
  /** Problem if they were not (every U+FFFD may stand for bytes that could not be read). */
  problemIfInvalid?: string;
  firstEscape?: string;
  /** A high surrogate escape whose low half must come next. */
  pendingHigh: boolean;
}

/**
 * JSON read a piece of text at a time, with `parseJsonStrict`'s checks (`safe-json.ts`), so that a
 * body of any size is judged without being held whole: syntax exactly as JSON.parse takes it, then
 * the strict problems in text order, each located by its top-level key, under both readings of
 * U+FFFD (the body's bytes are known to be valid UTF-8 only at its end). Memory is bounded by the
 * limits of `json-limits.ts`, not by the body: past either, the body is refused and no key is kept.
 */
export class StrictJsonStream {
  private state = S.Value;
  /** The open containers, innermost last: 1 an object, 0 an array. */
  private kinds = new Uint8Array(64);
  private depth = 0;
  /** Each open object's keys, while the strict checks run (never past `jsonDepthMax`). */
  private keySets: Array<Set<string> | null> = [];
  private field: string | undefined;
  private rootIsObject = false;
  private string: OpenString | undefined;
  private unicode = "";
  private literal = "";
  private literalAt = 0;
  private syntaxError = false;
  /** A number's text so far, and where it began in the text being written. */
  private numberText = "";
  private numberPart = NumberPart.Int;
  private numberFrom = 0;
  private cursor = 0;
  /** The text being written (`numberStep` slices a number's end out of it). */
  private text = "";
  /** The strict findings; undefined for plain JSON.parse syntax (no key kept, no limit). */
  readonly problems: StrictProblems | undefined;

  /**
   * `readField`: the top-level fields whose problems refuse a close (`closeReadFields`); none: syntax
   * only. `resume`: the text starts inside a root array whose opening (and items) another reader read.
   */
  constructor(
    private readonly events: JsonEvents,
    readField?: (field: string) => boolean,
    resume?: "first-item" | "next-item",
  ) {
    this.problems = readField ? new StrictProblems(readField) : undefined;
    if (resume) {
      this.depth = 1;
      this.kinds[0] = 0;
      this.state = resume === "first-item" ? S.ValueOrEnd : S.Value;
    }
  }

  private get checking(): boolean {
    return this.problems?.active === true;
  }

  write(text: string): void {
    let i = 0;
    const n = text.length;
    this.text = text;
    this.numberFrom = 0;
    while (i < n && this.state !== S.Error) {
      const code = text.charCodeAt(i);
      switch (this.state) {
        case S.String: {
          // A run of plain characters at once: the common case, and the bulk of a close.
          let j = i;
          const open = this.string as OpenString;
          // A high surrogate escape not followed by another escape is alone, before what follows it.
          if (open.pendingHigh && code !== 0x5c) this.loneSurrogate(open);
          while (j < n) {
            const c = text.charCodeAt(j);
            if (c === 0x22 || c === 0x5c || c < 0x20) break;
            if (c === 0xfffd) open.problemIfInvalid ??= INVALID_UTF8;
            j++;
          }
          if (j > i) {
            this.collect(open, text.slice(i, j));
            i = j;
            continue;
          }
          if (code === 0x22) this.endString(open);
          else if (code === 0x5c) this.state = S.Escape;
          else this.fail(); // a raw control character
          i++;
          continue;
        }
        case S.Escape: {
          const open = this.string as OpenString;
          if (code === 0x75) {
            this.unicode = "";
            this.state = S.Unicode;
          } else {
            const decoded = SIMPLE_ESCAPES[text[i] as string];
            if (decoded === undefined) {
              this.fail();
              continue;
            }
            if (open.pendingHigh) this.loneSurrogate(open);
            this.collect(open, decoded);
            this.state = S.String;
          }
          i++;
          continue;
        }
        case S.Unicode: {
          if (!isHex(code)) {
            this.fail();
            continue;
          }
          this.unicode += text[i];
          i++;
          if (this.unicode.length === 4) this.endEscape(this.string as OpenString);
          continue;
        }
        case S.Number: {
          this.cursor = i;
          if (this.numberStep(code)) i++;
          continue;
        }
        case S.Literal: {
          if (code !== this.literal.charCodeAt(this.literalAt)) {
            this.fail();
            continue;
          }
          i++;
          if (++this.literalAt === this.literal.length) this.endValue();
          continue;
        }
        default:
          break;
      }
      if (isWhitespace(code)) {
        i++;
        continue;
      }
      this.cursor = i;
      this.structural(code);
      i++;
    }
    if (this.events.number && this.state === S.Number) this.numberText += text.slice(this.numberFrom);
  }

  /** The end of the text: whether it was one JSON value (`problems` then holds the strict findings). */
  end(): boolean {
    this.text = "";
    this.cursor = 0;
    this.numberFrom = 0;
    if (this.state === S.Number) this.numberStep(-1);
    return this.state === S.Done && !this.syntaxError;
  }

  /** Whether the root value is an object (problems are then located by its keys). */
  get rootObject(): boolean {
    return this.rootIsObject;
  }

  private structural(code: number) {
    switch (this.state) {
      case S.Value:
      case S.ValueOrEnd:
        if (code === 0x5d && this.state === S.ValueOrEnd) return this.closeContainer(0);
        return this.beginValue(code);
      case S.KeyOrEnd:
      case S.Key:
        if (code === 0x7d && this.state === S.KeyOrEnd) return this.closeContainer(1);
        if (code !== 0x22) return this.fail();
        return this.beginString(true);
      case S.Colon:
        if (code !== 0x3a) return this.fail();
        this.state = S.Value;
        return;
      case S.After: {
        const inObject = this.kinds[this.depth - 1] === 1;
        if (code === 0x2c) {
          this.state = inObject ? S.Key : S.Value;
          return;
        }
        if (code === (inObject ? 0x7d : 0x5d)) return this.closeContainer(inObject ? 1 : 0);
        return this.fail();
      }
      default:
        return this.fail();
    }
  }

  private beginValue(code: number) {
    switch (code) {
      case 0x7b:
      case 0x5b:
        return this.openContainer(code === 0x7b ? 1 : 0);
      case 0x22:
        return this.beginString(false);
      case 0x74:
        return this.beginLiteral("true");
      case 0x66:
        return this.beginLiteral("false");
      case 0x6e:
        return this.beginLiteral("null");
      default:
        if (code !== 0x2d && !isDigit(code)) return this.fail();
        this.events.begin("number");
        this.numberText = "";
        this.numberFrom = this.cursor;
        this.numberPart = firstNumberPart(code);
        this.state = S.Number;
    }
  }

  private openContainer(kind: 0 | 1) {
    if (this.depth === 0) this.rootIsObject = kind === 1;
    this.events.begin(kind === 1 ? "object" : "array");
    if (this.depth === this.kinds.length) {
      const grown = new Uint8Array(this.kinds.length * 2);
      grown.set(this.kinds);
      this.kinds = grown;
    }
    this.kinds[this.depth] = kind;
    this.depth += 1;
    if (this.checking) {
      if (this.depth > jsonDepthMax) this.structureProblem(tooDeep);
      else this.keySets.push(kind === 1 ? new Set() : null);
    }
    this.state = kind === 1 ? S.KeyOrEnd : S.ValueOrEnd;
  }

  private closeContainer(kind: 0 | 1) {
    if (this.kinds[this.depth - 1] !== kind) return this.fail();
    this.depth -= 1;
    if (this.checking) this.keySets.pop();
    this.events.end();
    this.afterValue();
  }

  private beginString(isKey: boolean): void {
    const sink = isKey ? undefined : this.events.begin("string");
    this.string = { isKey, sink, keyText: "", pendingHigh: false };
    this.state = S.String;
  }

  private collect(open: OpenString, chars: string): void {
    if (open.isKey) open.keyText += chars;
    else open.sink?.append(chars);
  }

  private endEscape(open: OpenString): void {
    const written = `\\u${this.unicode}`;
    const code = Number.parseInt(this.unicode, 16);
    this.state = S.String;
    if (open.pendingHigh && isLow(code)) {
      // The low half of a pair: consumed with its high half (`safe-json.ts` reads the pair as one).
      open.pendingHigh = false;
    } else {
      if (open.pendingHigh) this.loneSurrogate(open);
      open.firstEscape ??= written;
      if (code <= LAST_REFUSED_ESCAPE)
        this.stringProblem(
          open,
          `string escape ${written} is refused: \\u escapes may only encode non-ASCII characters from U+00A0 on`,
        );
      else if (isHigh(code)) open.pendingHigh = true;
      else if (isLow(code)) this.stringProblem(open, LONE_SURROGATE);
    }
    this.collect(open, String.fromCharCode(code));
  }

  private loneSurrogate(open: OpenString): void {
    open.pendingHigh = false;
    this.stringProblem(open, LONE_SURROGATE);
  }

  private stringProblem(open: OpenString, problem: string): void {
    open.problem ??= problem;
    open.problemIfInvalid ??= problem;
  }

  private endString(open: OpenString): void {
    if (open.pendingHigh) this.loneSurrogate(open);
    this.string = undefined;
    if (!open.isKey) {
      this.located(open.problem, open.problemIfInvalid);
      this.endValue();
      return;
    }
    const key = open.keyText;
    if (this.depth === 1) this.field = key;
    if (this.checking) this.keyChecks(key, open);
    this.events.key(key);
    this.state = S.Colon;
  }

  /** `keyProblem` of `safe-json.ts`: every key remembered, so a later repeat of it is found. */
  private keyChecks(key: string, open: OpenString) {
    const keys = this.keySets[this.depth - 1];
    if (!keys) return;
    const repeated = keys.has(key);
    keys.add(key);
    if (keys.size > jsonObjectKeysMax) return this.structureProblem(tooManyKeys);
    let own: string | undefined;
    if (open.firstEscape)
      own = `an object key holds the escape ${open.firstEscape}: keys must be plain ASCII names, not escaped`;
    else if (FORBIDDEN_KEYS.has(key)) own = `key "${key}" is not allowed`;
    else if (repeated) own = `key "${key}" appears twice in one object`;
    this.located(own ?? open.problem, own ?? open.problemIfInvalid);
  }

  private located(problem: string | undefined, problemIfInvalid: string | undefined): void {
    if (!this.checking || (problem === undefined && problemIfInvalid === undefined)) return;
    this.problems?.found(problem, problemIfInvalid, this.rootIsObject ? this.field : undefined);
  }

  /** A limit of `json-limits.ts` passed: refused whatever the field; nothing more need be kept. */
  private structureProblem(message: string): void {
    this.problems?.found(message, message, undefined);
    this.keySets = [];
  }

  private beginLiteral(word: string): void {
    this.events.begin(word as ValueKind);
    this.literal = word;
    this.literalAt = 1;
    this.state = S.Literal;
  }

  /** One character of a number (-1: the end of the text); false when it ends the number unread. */
  private numberStep(code: number): boolean {
    const next = nextNumberPart(this.numberPart, code);
    if (next === "invalid") {
      this.fail();
      return true;
    }
    if (next !== "ended") {
      this.numberPart = next;
      return true;
    }
    if (this.events.number) {
      this.numberText += this.text.slice(this.numberFrom, this.cursor);
      this.events.number(this.numberText);
    }
    this.endValue();
    return false;
  }

  private endValue(): void {
    this.events.end();
    this.afterValue();
  }

  private afterValue(): void {
    this.state = this.depth === 0 ? S.Done : S.After;
  }

  private fail(): void {
    this.syntaxError = true;
    this.state = S.Error;
  }
}
