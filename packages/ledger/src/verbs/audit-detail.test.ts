import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditDetailMaxBytes, auditDetailText } from "./audit-detail.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("an audit line's detail (auditDetailText)", () => {
  it("keeps a detail within 64 KiB as its JSON, byte for byte", () => {
    const detail = { request: { amount: 1_000n, note: "é".repeat(1_000) }, replayed: false };
    expect(auditDetailText(detail)).toBe(
      `{"request":{"amount":1000,"note":"${"é".repeat(1_000)}"},"replayed":false}`,
    );
  });

  it("past 64 KiB replaces the largest values by the size and SHA-256 of their JSON, the small ones kept in place", () => {
    const request = {
      crashGameBets: JSON.stringify(Array.from({ length: 20_000 }, (_, i) => i)),
      note: "fix",
    };
    const answer = { code: 200, data: { provider_tx_id: "r-1-manual" } };
    const text = auditDetailText({ provider_tx_id: "r-1-manual", replayed: false, request, answer });
    const requestJson = JSON.stringify(request);
    expect(JSON.parse(text)).toEqual({
      provider_tx_id: "r-1-manual",
      replayed: false,
      request: { omitted: true, bytes: Buffer.byteLength(requestJson), sha256: sha256(requestJson) },
      answer,
    });
    expect(Buffer.byteLength(requestJson)).toBeGreaterThan(auditDetailMaxBytes);
  });

  it("counts bytes, not characters: 30,000 four-byte characters (60,000 UTF-16 units) are 120,000 bytes, omitted", () => {
    const note = "😀".repeat(30_000);
    const parsed = JSON.parse(auditDetailText({ note, small: 1 }));
    expect(parsed).toEqual({
      note: { omitted: true, bytes: 120_002, sha256: sha256(JSON.stringify(note)) },
      small: 1,
    });
  });

  it("stays within 64 KiB whatever the detail: many medium values go one by one, and past that the whole detail goes", () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, "x".repeat(4_000)]));
    const some = auditDetailText(many);
    expect(Buffer.byteLength(some)).toBeLessThanOrEqual(auditDetailMaxBytes);
    expect(Object.values(JSON.parse(some)).filter((value) => typeof value === "string")).toHaveLength(15);
    const keys = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, i) => [`key-${"k".repeat(40)}-${i}`, i]),
    );
    const whole = JSON.stringify(keys);
    expect(JSON.parse(auditDetailText(keys))).toEqual({
      omitted: true,
      bytes: Buffer.byteLength(whole),
      sha256: sha256(whole),
    });
  });
});
