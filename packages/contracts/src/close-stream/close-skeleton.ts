import { attributeNames } from "../attributes.ts";
import { closeItemChecks } from "../close-round.ts";
import { limits } from "../limits.ts";
import { StreamedArrayText } from "./array-text.ts";
import type { JsonEvents, StringSink, ValueKind } from "./json-stream.ts";

/** The top-level fields a close's schema reads as strings (`closeRoundRequest`). */
const scalarFields = new Set(["action", "action_id", "provider_tx_id", "game", "currency"]);
const arrayNames = new Set<string>([attributeNames.cashOutCoefficients, attributeNames.bets]);
const longestName = Math.max(...[...arrayNames].map((name) => name.length));

/** A stand-in of a value's type for a value whose content no rule reads. */
function standIn(kind: ValueKind): unknown {
  switch (kind) {
    case "object":
      return {};
    case "array":
      return [];
    case "string":
      return "";
    case "number":
      return 0;
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
  }
}

/**
 * A field's string, kept up to `limit` UTF-16 units. Past it only what a rule could still tell is kept:
 * that it is longer (than any id's limit) and whether it holds a character that is not
 * whitespace (`identifier` refuses one of only whitespace), so `text()` is a stand-in the same rules
 * judge the same way. An 8 MiB `action_id` is never held.
 */
class KeptString implements StringSink {
  private readonly parts: string[] = [];
  private length = 0;
  private nonWhitespace = false;
  truncated = false;
  constructor(private readonly limit: number) {}
  append(chars: string): void {
    if (!this.nonWhitespace && /\S/.test(chars)) this.nonWhitespace = true;
    const room = this.limit - this.length;
    if (chars.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chars.length > room ? chars.slice(0, room) : chars;
    this.parts.push(kept);
    this.length += kept.length;
  }
  text(): string {
    const kept = this.parts.join("");
    if (!this.truncated) return kept;
    // Longer than kept, and holding something other than whitespace exactly when the whole did.
    return this.nonWhitespace && !/\S/.test(kept) ? `${kept}x` : `${kept} `;
  }
}

/**
 * UTF-16 units of a read field's string kept: every id a close reads at its limit (`limits.ts`, in
 * code points, two units at most each), and one more. A string cut here still holds more code points
 * than any of those limits, so its stand-in is judged too long, as the whole would be.
 */
const FIELD_CHARS = 2 * Math.max(limits.closeTxId.max, limits.roundId.max, limits.game.max) + 1;

interface Entry {
  name: unknown;
  value: unknown;
}

/** A value being read whose result goes into the skeleton when it ends. */
type Pending =
  | { into: "field"; field: string; sink: KeptString }
  | { into: "entry-name"; entry: Entry; sink: KeptString }
  | { into: "entry-value"; entry: Entry; sink: StreamedArrayText };

type Frame = { kind: "root" } | { kind: "attributes" } | { kind: "entry"; entry: Entry };

/**
 * What a close's rules read of its body, built as the body streams by (`json-stream.ts` events): the
 * root object's read fields (last occurrence wins, as with JSON.parse), and of `attributes` only the
 * entries named as the two arrays, each value a `StreamedArrayText` (read, checked and written back
 * as it goes, never held). Any other content is only checked for syntax, never kept, so what is
 * held is bounded by the read fields, not the body. Only the types of values no rule reads are kept.
 */
export class CloseSkeleton implements JsonEvents {
  private readonly frames: Frame[] = [];
  /** Open containers nobody reads (their content is skipped). */
  private skipped = 0;
  private scalarOpen = false;
  private pending: Pending | undefined;
  /** Where a number being read goes, when a rule tells values apart (two attribute values, say). */
  private numberInto: ((value: number) => void) | undefined;
  private field: string | undefined;
  private entryKey: string | undefined;
  /** Distinct values of each array's attribute (two are as many as the rules tell apart). */
  private readonly values = new Map<string, unknown[]>();
  private readonly texts = new Map<string, StreamedArrayText>();
  private attributesList = false;
  /** The root value: an object of the read fields, or a stand-in of the root's type. */
  root: unknown;
  /** The root is an object. */
  rootObject = false;

  begin(kind: ValueKind): StringSink | undefined {
    const container = kind === "object" || kind === "array";
    if (this.skipped > 0) {
      if (container) this.skipped += 1;
      else this.scalarOpen = true;
      return undefined;
    }
    const sink = this.place(kind);
    if (!container) this.scalarOpen = true;
    return sink;
  }

  key(name: string): void {
    if (this.skipped > 0) return;
    const frame = this.frames.at(-1);
    if (frame?.kind === "root") this.field = name;
    else if (frame?.kind === "entry") this.entryKey = name;
  }

  number(text: string): void {
    this.numberInto?.(Number(text));
    this.numberInto = undefined;
  }

  end(): void {
    if (this.scalarOpen) {
      this.scalarOpen = false;
      this.numberInto = undefined;
      this.settle();
      return;
    }
    if (this.skipped > 0) {
      this.skipped -= 1;
      return;
    }
    const frame = this.frames.pop();
    if (frame?.kind === "entry") this.keep(frame.entry);
  }

  /** The root as the rules read it, `attributes` holding the array entries found (stand-ins elsewhere). */
  value(): unknown {
    if (!this.rootObject) return this.root;
    const root = this.root as Record<string, unknown>;
    if (!this.attributesList) return root;
    const attributes = [...this.values].flatMap(([name, values]) => values.map((value) => ({ name, value })));
    return { ...root, attributes };
  }

  /** Where a beginning value goes; a sink for a string whose characters some rule reads. */
  private place(kind: ValueKind): StringSink | undefined {
    const frame = this.frames.at(-1);
    const container = kind === "object" || kind === "array";
    if (!frame) {
      this.rootObject = kind === "object";
      this.root = this.rootObject ? {} : standIn(kind);
      if (this.rootObject) this.frames.push({ kind: "root" });
      else if (container) this.skipped += 1;
      return undefined;
    }
    if (frame.kind === "root") return this.placeField(kind, this.field ?? "");
    if (frame.kind === "attributes") {
      if (kind === "object")
        this.frames.push({ kind: "entry", entry: { name: undefined, value: undefined } });
      else if (container) this.skipped += 1;
      return undefined;
    }
    return this.placeEntryField(kind, frame.entry);
  }

  private placeField(kind: ValueKind, field: string): StringSink | undefined {
    const root = this.root as Record<string, unknown>;
    const container = kind === "object" || kind === "array";
    const read = scalarFields.has(field) || field === "attributes";
    if (field === "attributes") this.attributesList = kind === "array";
    if (this.attributesList && field === "attributes") {
      this.values.clear();
      this.frames.push({ kind: "attributes" });
      return undefined;
    }
    if (container) this.skipped += 1;
    if (!read) return undefined;
    root[field] = standIn(kind);
    // `attributes` as a string is refused for being one, whatever it says.
    if (kind !== "string" || field === "attributes") return undefined;
    const sink = new KeptString(FIELD_CHARS);
    this.pending = { into: "field", field, sink };
    return sink;
  }

  private placeEntryField(kind: ValueKind, entry: Entry): StringSink | undefined {
    const container = kind === "object" || kind === "array";
    if (container) this.skipped += 1;
    if (this.entryKey === "name") {
      entry.name = standIn(kind);
      if (kind !== "string") return undefined;
      const sink = new KeptString(longestName);
      this.pending = { into: "entry-name", entry, sink };
      return sink;
    }
    if (this.entryKey !== "value") return undefined;
    entry.value = standIn(kind);
    if (kind === "number")
      this.numberInto = (value) => {
        entry.value = value;
      };
    if (kind !== "string") return undefined;
    const sink = new StreamedArrayText(closeItemChecks);
    this.pending = { into: "entry-value", entry, sink };
    return sink;
  }

  /** A scalar ended: a kept string takes its place; a number or literal already has its stand-in. */
  private settle(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    if (pending.into === "field") (this.root as Record<string, unknown>)[pending.field] = pending.sink.text();
    else if (pending.into === "entry-name")
      // A name longer than the longest array name is neither: a stand-in that matches none.
      pending.entry.name = pending.sink.truncated ? {} : pending.sink.text();
    else {
      pending.sink.finish();
      // The same text twice is one value, as two equal strings are to a Set.
      const seen = this.texts.get(pending.sink.digest);
      if (!seen) this.texts.set(pending.sink.digest, pending.sink);
      pending.entry.value = seen ?? pending.sink;
    }
  }

  private keep(entry: Entry): void {
    if (typeof entry.name !== "string" || !arrayNames.has(entry.name)) return;
    const values = this.values.get(entry.name) ?? [];
    if (values.length < 2 && !values.includes(entry.value)) values.push(entry.value);
    this.values.set(entry.name, values);
  }
}
