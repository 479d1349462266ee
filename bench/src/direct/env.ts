import { gatewayEnvSchema } from "@wallet/gateway/env";
import { z } from "zod";

/** The direct baseline: the gateway's settings plus the database the verbs run on. */
export const directEnvSchema = gatewayEnvSchema.extend({
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  DB_POOL_SIZE: z.coerce.number().int().min(1).default(16),
});
export type DirectEnv = z.infer<typeof directEnvSchema>;

export function readDirectEnv(source: Record<string, string | undefined> = process.env): DirectEnv {
  return directEnvSchema.parse(source);
}
