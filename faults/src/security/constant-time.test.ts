import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkSignature, sign } from "@wallet/contracts/hmac";
import { productionSources } from "@wallet/contracts/testing/production-sources";
import { describe, expect, it, vi } from "vitest";

// A timing measurement cannot tell a first-byte from a last-byte mismatch at this scale (the HMAC
// itself dominates, and the machine is shared), so constant-time comparison is shown from the
// sources: every place a secret is compared uses crypto.timingSafeEqual on two equal-length digests,
// and nothing compares a secret with an operator or a string method that stops at the first
// difference. running-system.security.test.ts shows the observable half over HTTP.

// Spied on, not replaced: the signature check below must reach it, with two 32-byte digests.
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  return { ...crypto, timingSafeEqual: vi.fn(crypto.timingSafeEqual) };
});
const { timingSafeEqual } = await import("node:crypto");

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** Source text without comments: prose may say "secret" next to anything. */
function code(path: string): string {
  return readFileSync(join(repoRoot, path), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** Names a shared secret goes by anywhere (the tenants' HMAC keys, the operator API's token, a password). */
const secretNames = ["secretKey", "secret", "password", "OPERATOR_API_TOKEN", "operatorToken"];
/** The two comparison sites: there `token` is the bearer secret and `expected` the secret-derived digest. */
const comparisonSites: Record<string, string[]> = {
  "packages/contracts/src/hmac.ts": ["expected"],
  "apps/operator-api/src/bearer.ts": ["token", "envToken", "given", "expected"],
};

/**
 * Lines comparing one of `names` in a way that stops at the first differing character: an equality
 * operator, or a string or buffer method. A `.length` is public and may be compared.
 */
function shortCircuitComparisons(source: string, names: string[]): string[] {
  const name = `\\b(?:${names.join("|")})\\b`;
  const operand = `${name}(?:\\??\\.(?!length\\b)\\w+)*`;
  const operator = "(?:===|!==|==|!=)";
  const method = "\\.(?:startsWith|endsWith|includes|indexOf|localeCompare|equals|compare)\\(";
  const patterns = [
    new RegExp(`${operand}\\s*${operator}`),
    new RegExp(`${operator}\\s*[\\w.?]*${name}(?!\\s*\\??\\.length)`),
    new RegExp(`${operand}${method}`),
    new RegExp(`${method}[^)]*${name}`),
  ];
  return source
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => patterns.some((pattern) => pattern.test(line)));
}

describe("the comparison scanner", () => {
  it("flags short-circuiting comparisons of a secret and lets the constant-time ones through", () => {
    const bad = [
      "if (given === token) next();",
      "return tenant.secretKey !== header;",
      "if (header == secret) return true;",
      "const ok = header.startsWith(secret);",
      "return expected.equals(given);",
      "if (Buffer.compare(given, expected) === 0) return;",
      'return signature.toString("base64") === expected.toString("base64");',
    ];
    const good = [
      "return timingSafeEqual(given, expected) ? 'ok' : 'mismatch';",
      "if (given.length !== DIGEST_BYTES) return 'malformed_signature';",
      "if (expected.length !== 32) throw new Error();",
      "const expected = createHash('sha256').update(token).digest();",
      "if (!given || !matches) return sendError(res, 401, 'missing or wrong bearer token');",
    ];
    for (const line of bad)
      expect([line, shortCircuitComparisons(line, ["secretKey", "secret", "token", "expected"])]).toEqual([
        line,
        [line],
      ]);
    for (const line of good)
      expect([line, shortCircuitComparisons(line, ["secretKey", "secret", "token", "expected"])]).toEqual([
        line,
        [],
      ]);
  });
});

describe("constant-time comparison of secrets, from the sources", () => {
  // Tests and test helpers hold test secrets only.
  const sources = productionSources(repoRoot);

  it("timingSafeEqual is called in exactly the two comparison sites (a new one must be reviewed here)", () => {
    expect(sources.length).toBeGreaterThan(50);
    const callers = sources.filter((path) => /timingSafeEqual\(/.test(code(path)));
    expect(callers.sort()).toEqual(Object.keys(comparisonSites).sort());
  });

  it("no production source compares a secret with ===, !== or a string method", () => {
    const found = sources.flatMap((path) =>
      shortCircuitComparisons(code(path), [...secretNames, ...(comparisonSites[path] ?? [])]).map(
        (line) => `${path}: ${line}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("the signature: the header's bytes, checked to be a 32-byte digest, against the HMAC-SHA256 digest", () => {
    const hmac = code("packages/contracts/src/hmac.ts");
    expect(hmac).toMatch(/const DIGEST_BYTES = 32;/);
    expect(hmac).toMatch(/const expected = createHmac\("sha256", secret\)\.update\(rawBody\)\.digest\(\);/);
    // The length check comes first, so timingSafeEqual never throws and always compares 32 bytes.
    const lengthCheck = hmac.search(/if \(given\.length !== DIGEST_BYTES\) return "malformed_signature";/);
    const comparison = hmac.search(/timingSafeEqual\(given, expected\)/);
    expect(lengthCheck).toBeGreaterThan(0);
    expect(comparison).toBeGreaterThan(lengthCheck);
  });

  it("the bearer token: SHA-256 of the configured token against SHA-256 of the one sent, whatever its length", () => {
    const bearer = code("apps/operator-api/src/bearer.ts");
    expect(bearer).toMatch(
      /const sha256 = \(text: string\) => createHash\("sha256"\)\.update\(text\)\.digest\(\);/,
    );
    expect(bearer).toMatch(/const expected = sha256\(envToken\);/);
    expect(bearer).toMatch(/timingSafeEqual\(sha256\(given\), expected\)/);
    // A per-operator token is never compared in JavaScript: it is looked up by its SHA-256 (issue 19).
    expect(bearer).toMatch(/findToken\(given\)/);
    expect(code("packages/ledger/src/verbs/operator-tokens.ts")).toMatch(
      /eq\(operatorApiTokens\.tokenHash, tokenHash\(token\)\)/,
    );
  });

  it("a signature wrong in its first or its last byte reaches the same 32-byte comparison", () => {
    const body = '{"user_id":"player-1","currency":"EUR"}';
    const secret = "tenant-secret-key";
    const good = Buffer.from(sign(body, secret), "base64");
    const wrongAt = (index: number) => {
      const bytes = Buffer.from(good);
      bytes[index] = (bytes[index] ?? 0) ^ 0x80;
      return bytes.toString("base64");
    };
    const compare = vi.mocked(timingSafeEqual);
    for (const signature of [wrongAt(0), wrongAt(31)]) {
      compare.mockClear();
      expect(checkSignature(body, signature, secret)).toBe("mismatch");
      expect(compare).toHaveBeenCalledTimes(1);
      const [given, expected] = compare.mock.calls[0] ?? [];
      expect([given?.byteLength, expected?.byteLength]).toEqual([32, 32]);
    }
  });
});
