import { describe, expect, it } from "vitest";
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
});
