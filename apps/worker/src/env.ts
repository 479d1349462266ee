import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { z } from "zod";

/** The worker's whole configuration, read once at boot; defaults are for local use only. */
export const workerEnvSchema = z.object({
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  TENANTS: tenantsJson.default(devTenants),
  LEDGER_PARTITIONS: z.coerce.number().int().min(1).max(1024).default(32),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3600),
});
export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export function readWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  return workerEnvSchema.parse(source);
}
