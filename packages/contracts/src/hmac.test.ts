import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "./hash.ts";
import { checkSignature, checkSignatureInSlices, sign, verify } from "./hmac.ts";

const secret = "tenant-1-secret";
const body = '{"action":"BET","amount":1000,"provider_tx_id":"tx-1"}';

describe("sign", () => {
  it("is the Base64 HMAC-SHA256 of the raw bytes", () => {
    expect(sign(body, secret)).toBe(createHmac("sha256", secret).update(body).digest("base64"));
    expect(sign(Buffer.from(body), secret)).toBe(sign(body, secret));
  });
});

describe("verify", () => {
  const good = sign(body, secret);

  it("accepts the platform's signature of the exact bytes", () => {
    expect(verify(body, good, secret)).toBe(true);
    expect(verify(Buffer.from(body), good, secret)).toBe(true);
  });

  it("rejects, without throwing, missing, empty, non-Base64 and wrong-length signatures", () => {
    const shapes: unknown[] = [
      undefined,
      null,
      "",
      " ",
      "not base64 at all!!",
      good.slice(0, -2),
      `${good}AAAA`,
      Buffer.from("short").toString("base64"),
      createHmac("sha512", secret).update(body).digest("base64"),
      good.replace("=", ""),
      ["array", good],
      12345,
      { toString: () => good },
    ];
    for (const header of shapes) expect(verify(body, header, secret)).toBe(false);
  });

  it("rejects a signature made with another tenant's secret", () => {
    expect(verify(body, sign(body, "tenant-2-secret"), secret)).toBe(false);
  });

  it("rejects a signature over the same JSON re-serialized (signatures cover bytes, not meaning)", () => {
    const reserialized = JSON.stringify(JSON.parse(body), null, 1);
    expect(verify(reserialized, good, secret)).toBe(false);
  });

  it("rejects a non-canonical Base64 spelling of the right digest", () => {
    // The last symbol of a 32-byte digest carries two unused bits; setting them is another spelling.
    const last = good.at(-2) ?? "A";
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const tweaked = `${good.slice(0, -2)}${alphabet[alphabet.indexOf(last) + 1]}=`;
    expect(Buffer.from(tweaked, "base64").equals(Buffer.from(good, "base64"))).toBe(true);
    expect(verify(body, tweaked, secret)).toBe(false);
  });

  it("never throws and accepts only the true signature, for any bytes and any header", () => {
    fc.assert(
      fc.property(
        fc.uint8Array(),
        fc.oneof(fc.string(), fc.base64String(), fc.anything()),
        (bytes, header) => {
          const result = verify(bytes, header, secret);
          expect(result).toBe(header === sign(bytes, secret));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("checkSignature", () => {
  // The gateway counts refusals by these reasons (wallet_signature_failures_total{reason}).
  it("names why a signature was refused", () => {
    const good = sign(body, secret);
    expect(checkSignature(body, good, secret)).toBe("ok");
    expect(checkSignature(body, undefined, secret)).toBe("missing_signature");
    expect(checkSignature(body, "  ", secret)).toBe("missing_signature");
    expect(checkSignature(body, ["array", good], secret)).toBe("missing_signature");
    expect(checkSignature(body, "not base64 at all!!", secret)).toBe("malformed_signature");
    expect(checkSignature(body, good.slice(0, -2), secret)).toBe("malformed_signature");
    expect(checkSignature(body, sign(body, "tenant-2-secret"), secret)).toBe("mismatch");
    expect(checkSignature(`${body} `, good, secret)).toBe("mismatch");
  });
});

describe("checkSignatureInSlices", () => {
  it("agrees with checkSignature and sha256Hex on bodies across slice boundaries, for every refusal too", async () => {
    const secret = "s3cret";
    for (const size of [0, 1, 512 * 1024 - 1, 512 * 1024, 512 * 1024 + 1, 3 * 512 * 1024 + 7]) {
      const body = Buffer.alloc(size, 0x61);
      if (size > 0) body[size - 1] = 0x62;
      for (const header of [
        sign(body, secret),
        sign(body, "other"),
        undefined,
        "",
        "not base64",
        `${sign(body, secret)}x`,
      ]) {
        const sliced = await checkSignatureInSlices(body, header, secret);
        expect(sliced.check).toBe(checkSignature(body, header, secret));
        expect(sliced.sha256).toBe(
          sliced.check === "ok" || sliced.check === "mismatch" ? sha256Hex(body) : "",
        );
      }
    }
  });
});
