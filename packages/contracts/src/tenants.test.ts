import { describe, expect, it } from "vitest";
import { limits } from "./limits.ts";
import { tenantsJson } from "./tenants.ts";
import { describeIssues } from "./validation.ts";

describe("TENANTS", () => {
  it("parses a JSON array of tenants", () => {
    const value = JSON.stringify([
      { operatorId: 1, publicKey: "pk-1", secretKey: "secret-one" },
      { operatorId: 2, publicKey: "pk-2", secretKey: "secret-two" },
    ]);
    expect(tenantsJson.parse(value).map((tenant) => tenant.publicKey)).toEqual(["pk-1", "pk-2"]);
  });

  it("refuses repeated ids or keys and bad JSON without echoing any secret", () => {
    const repeated = JSON.stringify([
      { operatorId: 1, publicKey: "pk", secretKey: "very-secret-1" },
      { operatorId: 1, publicKey: "pk", secretKey: "very-secret-2" },
    ]);
    const result = tenantsJson.safeParse(repeated);
    expect(result.success).toBe(false);
    const message = result.success ? "" : describeIssues(result.error);
    expect(message).toBe("TENANTS has a repeated operatorId; TENANTS has a repeated publicKey");
    expect(message).not.toMatch(/very-secret/);
    const broken = tenantsJson.safeParse('[{"secretKey":"very-secret-3"');
    expect(broken.success ? "" : describeIssues(broken.error)).not.toMatch(/very-secret/);
  });

  it("takes a publicKey of up to 128 printable ASCII characters, what its column and a header hold", () => {
    const tenants = (publicKey: string) =>
      tenantsJson.safeParse(JSON.stringify([{ operatorId: 1, publicKey, secretKey: "secret-one" }]));
    expect(tenants("k".repeat(limits.tenantPublicKey.max)).success).toBe(true);
    for (const [publicKey, message] of [
      ["k".repeat(limits.tenantPublicKey.max + 1), "0.publicKey: must be at most 128 characters"],
      ["kéy", "0.publicKey: publicKey must be printable ASCII (it travels in a header)"],
      ["k y", "0.publicKey: publicKey must be printable ASCII (it travels in a header)"],
    ] as const) {
      const result = tenants(publicKey);
      expect(result.success ? "" : describeIssues(result.error)).toBe(message);
    }
  });
});
