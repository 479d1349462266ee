import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeOfHttpStatus, codeToStatus, errorCodes, WalletError } from "./errors.ts";
import { productionSources } from "./testing/production-sources.ts";

const root = join(import.meta.dirname, "../../..");

describe("error codes", () => {
  it("map to the statuses the contract and the operator API answer; only 5xx are retryable", () => {
    expect(Object.fromEntries(errorCodes.map((code) => [code, codeToStatus(code)]))).toEqual({
      BAD_REQUEST: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      INSUFFICIENT_FUNDS: 402,
      NOT_FOUND: 404,
      DUPLICATE_CONFLICT: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_ENCODING: 415,
      BAD_GATEWAY: 502,
      DEADLINE_EXCEEDED: 503,
      OVERLOADED: 503,
      UNAVAILABLE: 503,
    });
    for (const code of errorCodes)
      expect(new WalletError(code, "x").retryable).toBe(codeToStatus(code) >= 500);
  });

  it("name Express's own refusals by their status", () => {
    expect([413, 415, 400, 408].map(codeOfHttpStatus)).toEqual([
      "PAYLOAD_TOO_LARGE",
      "UNSUPPORTED_ENCODING",
      "BAD_REQUEST",
      "BAD_REQUEST",
    ]);
  });

  it("are each answered somewhere: a code nothing uses is pruned", () => {
    const sources = productionSources(root)
      .filter((path) => !path.endsWith("contracts/src/errors.ts"))
      .map((path) => readFileSync(join(root, path), "utf8"))
      .join("\n");
    const unused = errorCodes.filter(
      (code) => !sources.includes(`"${code}"`) && code !== "UNSUPPORTED_ENCODING", // via codeOfHttpStatus
    );
    expect(unused).toEqual([]);
  });
});
