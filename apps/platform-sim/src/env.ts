import { z } from "zod";
import { CONTRACT_MAX_ATTEMPTS } from "./retry-limits.ts";

const simOperator = z.object({
  operatorId: z.number().int().positive(),
  publicKey: z.string().min(1),
  secretKey: z.string().min(8),
  /** The operator's wallet base URL: where its four callbacks are sent. */
  walletUrl: z.string().url(),
  /** Game ids enabled for this operator; all of the simulator's games when left out. */
  games: z.array(z.string()).optional(),
});
export type SimOperator = z.infer<typeof simOperator>;

const operatorsJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "SIM_OPERATORS must be a JSON array of operators" });
      return z.NEVER;
    }
  })
  .pipe(z.array(simOperator).min(1));

const devOperators: SimOperator[] = [
  {
    operatorId: 1,
    publicKey: "dev-public-key",
    secretKey: "dev-secret-key",
    walletUrl: "http://127.0.0.1:3000",
  },
];

/** The simulator's configuration. The retry policy defaults are the contract's Limits. */
export const simEnvSchema = z.object({
  PLATFORM_SIM_PORT: z.coerce.number().int().min(0).max(65_535).default(3200),
  /** The address the simulator binds; unset, every interface, as players and tests reach it from elsewhere. */
  PLATFORM_SIM_HOST: z.string().min(1).optional(),
  /** Base of the launch URLs handed out (the simulator's own address as players reach it). */
  SIM_PUBLIC_URL: z.string().default("http://127.0.0.1:3200"),
  SIM_OPERATORS: operatorsJson.default(devOperators),
  SIM_RETRY_BASE_MS: z.coerce.number().int().min(0).default(5_000),
  SIM_RETRY_MAX_MS: z.coerce.number().int().min(0).default(120_000),
  SIM_RETRY_JITTER_MS: z.coerce.number().int().min(0).default(300),
  /** Sends of one callback in all, the first included: the contract's 5 (`CONTRACT_MAX_ATTEMPTS`). */
  SIM_RETRY_ATTEMPTS: z.coerce.number().int().min(1).default(CONTRACT_MAX_ATTEMPTS),
  SIM_CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(50).default(5_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type SimEnv = z.infer<typeof simEnvSchema>;

export function readSimEnv(source: Record<string, string | undefined> = process.env): SimEnv {
  return simEnvSchema.parse(source);
}
