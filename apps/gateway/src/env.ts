import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { z } from "zod";

/** The gateway's whole configuration, read once at boot; defaults are for local use only. */
export const gatewayEnvSchema = z.object({
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  TENANTS: tenantsJson.default(devTenants),
  LEDGER_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(32),
  CALLBACK_DEADLINE_MS: z.coerce.number().int().min(100).default(2500),
});
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function readGatewayEnv(source: Record<string, string | undefined> = process.env): GatewayEnv {
  return gatewayEnvSchema.parse(source);
}
