import { z } from "zod";
import { identifier } from "./fields.ts";
import { limits } from "./limits.ts";

/** One operator as configured in `TENANTS`: its id, the public key the platform sends, the shared secret. */
export const tenantConfig = z.object({
  operatorId: z.number().int().positive(),
  // Sent back by the platform in the X-Public-Key header: printable ASCII, as a header carries it.
  publicKey: identifier(limits.tenantPublicKey).pipe(
    z.string().regex(/^[\x21-\x7e]+$/, "publicKey must be printable ASCII (it travels in a header)"),
  ),
  secretKey: z.string().min(8, "secretKey must be at least 8 characters"),
  name: z.string().optional(),
});
export type TenantConfig = z.infer<typeof tenantConfig>;

export const devTenants: TenantConfig[] = [
  { operatorId: 1, publicKey: "dev-public-key", secretKey: "dev-secret-key" },
];

/**
 * `TENANTS` as a JSON string: an array of tenants with unique ids and public keys. Error messages
 * never echo the input, so a malformed value does not print secrets at boot.
 */
export const tenantsJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({
        code: "custom",
        message: "TENANTS must be a JSON array of {operatorId, publicKey, secretKey}",
      });
      return z.NEVER;
    }
  })
  .pipe(z.array(tenantConfig).min(1, "TENANTS must list at least one tenant"))
  .superRefine((list, ctx) => {
    const ids = new Set(list.map((tenant) => tenant.operatorId));
    const keys = new Set(list.map((tenant) => tenant.publicKey));
    if (ids.size !== list.length)
      ctx.addIssue({ code: "custom", message: "TENANTS has a repeated operatorId" });
    if (keys.size !== list.length)
      ctx.addIssue({ code: "custom", message: "TENANTS has a repeated publicKey" });
  });
