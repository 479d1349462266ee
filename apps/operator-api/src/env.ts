import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { z } from "zod";

/** The operator API's configuration, read once at boot; defaults are for local use only. */
export const operatorApiEnvSchema = z.object({
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  OPERATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  OPERATOR_API_TOKEN: z.string().min(8).default("dev-operator-token"),
  TENANTS: tenantsJson.default(devTenants),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type OperatorApiEnv = z.infer<typeof operatorApiEnvSchema>;

export function readOperatorApiEnv(source: Record<string, string | undefined> = process.env): OperatorApiEnv {
  return operatorApiEnvSchema.parse(source);
}
