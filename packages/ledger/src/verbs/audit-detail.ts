import { sha256Hex } from "@wallet/contracts/hash";
import { stringifyJson } from "@wallet/contracts/json";

/**
 * The most an audit line's `detail` keeps, in UTF-8 bytes of its JSON. A manual close's request (up to
 * CLOSE_ROUND_BODY_LIMIT_BYTES, 8 MiB) kept whole made a row past TiDB's 6 MiB entry limit
 * (`txn-entry-size-limit`) by itself: the audit write failed (8025) after the close was applied, and
 * every retry was a 503. Held here, for every audit line, whatever route writes it.
 */
export const auditDetailMaxBytes = 64 * 1024;

/** What an audit line keeps of a value too large to keep: the size and SHA-256 (hex) of its JSON. */
export interface OmittedValue {
  omitted: true;
  bytes: number;
  sha256: string;
}

const omitted = (text: string): OmittedValue => ({
  omitted: true,
  bytes: Buffer.byteLength(text),
  sha256: sha256Hex(text),
});

/**
 * An audit line's `detail` as stored: its JSON, or, past `auditDetailMaxBytes`, its top-level values
 * replaced, largest first, by `{ omitted: true, bytes, sha256 }` of their JSON until it fits (a manual
 * close's `request` goes; its round, key, `replayed`, `differs_from_first` and a small answer stay). A
 * reader still knows what was sent, how large, and can compare it with a body they hold. Should even
 * that not fit (hundreds of large fields), the whole detail is such a marker.
 */
export function auditDetailText(detail: Record<string, unknown>): string {
  const whole = stringifyJson(detail);
  let bytes = Buffer.byteLength(whole);
  if (bytes <= auditDetailMaxBytes) return whole;
  const fields = Object.entries(detail)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, text: stringifyJson(value), value }));
  const kept = new Map<string, unknown>(fields.map(({ key, value }) => [key, value]));
  const sized = fields.map((field) => ({ ...field, bytes: Buffer.byteLength(field.text) }));
  for (const field of sized.sort((a, b) => b.bytes - a.bytes)) {
    const marker = omitted(field.text);
    const markerBytes = stringifyJson(marker).length;
    // A value no larger than its marker: neither it nor any after it (smaller still) can help.
    if (field.bytes <= markerBytes) break;
    kept.set(field.key, marker); // in its place: the keys keep their order
    // A value's JSON replaced by another's changes the whole by the difference, exactly.
    bytes += markerBytes - field.bytes;
    if (bytes <= auditDetailMaxBytes) return stringifyJson(Object.fromEntries(kept));
  }
  return stringifyJson(omitted(whole));
}
