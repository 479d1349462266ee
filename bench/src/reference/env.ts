import { z } from "zod";

/** The reference wallet's settings: its own database, one tenant, a port. */
export const referenceEnvSchema = z.object({
  REFERENCE_DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet_reference"),
  REFERENCE_POOL_SIZE: z.coerce.number().int().min(1).default(16),
  REFERENCE_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  PUBLIC_KEY: z.string().min(1),
  SECRET_KEY: z.string().min(1),
});
export type ReferenceEnv = z.infer<typeof referenceEnvSchema>;

export function readReferenceEnv(source: Record<string, string | undefined> = process.env): ReferenceEnv {
  return referenceEnvSchema.parse(source);
}
