const REPLACEMENT = "\ufffd";

/**
 * Bytes to text a piece at a time, as `parseJsonBytesStrict` decodes a whole body: without `fatal`,
 * a leading byte order mark dropped, each invalid sequence a U+FFFD. `invalidAt` is the byte offset
 * of the first sequence that was not UTF-8 (a U+FFFD written as such, EF BF BD, is not one), found
 * the same way: up to it every character re-encodes to exactly the bytes it came from.
 */
export class Utf8Stream {
  private readonly decoder = new TextDecoder("utf-8");
  /** Bytes written so far. */
  private fed = 0;
  /** The stream's first three bytes (a byte order mark?) and the last three before the current piece. */
  private readonly head: number[] = [];
  private tail: number[] = [];
  /** Stream offset of the next character's first byte, while no invalid sequence has been found. */
  private at: number | undefined;
  invalidAt: number | undefined;

  write(bytes: Uint8Array): string {
    const text = this.decoder.decode(bytes, { stream: true });
    for (let i = 0; i < bytes.length && this.head.length < 3; i++) this.head.push(bytes[i] as number);
    this.locate(text, bytes);
    this.fed += bytes.length;
    this.tail = [...this.tail, ...bytes.subarray(Math.max(0, bytes.length - 3))].slice(-3);
    return text;
  }

  end(): string {
    const text = this.decoder.decode();
    this.locate(text, new Uint8Array(0));
    return text;
  }

  /** Whether any sequence was not UTF-8 (known for sure only after `end`). */
  get invalid(): boolean {
    return this.invalidAt !== undefined;
  }

  private locate(text: string, piece: Uint8Array): void {
    if (this.invalidAt !== undefined || text.length === 0) return;
    if (this.at === undefined) {
      // The first text out of the decoder: it has seen every byte of a leading mark by now.
      const [a, b, c] = this.head;
      this.at = a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0;
    }
    let from = 0;
    for (let found = text.indexOf(REPLACEMENT); found >= 0; found = text.indexOf(REPLACEMENT, from)) {
      this.at += Buffer.byteLength(text.slice(from, found));
      if (!this.isWrittenReplacement(this.at, piece)) {
        this.invalidAt = this.at;
        return;
      }
      this.at += 3;
      from = found + 1;
    }
    this.at += Buffer.byteLength(text.slice(from));
  }

  /** Whether the stream holds EF BF BD at `offset` (within the last three bytes fed or the piece). */
  private isWrittenReplacement(offset: number, piece: Uint8Array): boolean {
    const byteAt = (k: number) =>
      k >= this.fed ? piece[k - this.fed] : this.tail[this.tail.length - (this.fed - k)];
    return byteAt(offset) === 0xef && byteAt(offset + 1) === 0xbf && byteAt(offset + 2) === 0xbd;
  }
}
