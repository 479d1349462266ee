import { z } from "zod";

// The gateway CLIs' defaults: the local gateway and the dev tenant of ARCHITECTURE.md.
export const sendEnv = z
  .object({
    WALLET_URL: z.string().default("http://127.0.0.1:3000"),
    PUBLIC_KEY: z.string().default("dev-public-key"),
    SECRET_KEY: z.string().default("dev-secret-key"),
    OPERATOR_ID: z.coerce.number().int().positive().default(1),
    DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  })
  .parse(process.env);
