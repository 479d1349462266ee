import type { TenantConfig } from "@wallet/contracts/tenants";

/** `X-Public-Key` → tenant, built once from `TENANTS`. */
export function tenantsByPublicKey(
  tenants: TenantConfig[],
): (publicKey: unknown) => TenantConfig | undefined {
  const byKey = new Map(tenants.map((tenant) => [tenant.publicKey, tenant]));
  return (publicKey) => (typeof publicKey === "string" ? byKey.get(publicKey) : undefined);
}
