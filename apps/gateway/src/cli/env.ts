import { z } from "zod";

// The gateway CLIs' defaults: the local gateway and the dev tenant of ARCHITECTURE.md.
export const sendEnv = z
  .object({
    WALLET_URL: z.string().default("http://127.0.0.1:3000"),
    PUBLIC_KEY: z.string().default("dev-public-key"),
    SECRET_KEY: z.string().default("dev-secret-key"),
    OPERATOR_ID: z.coerce.number().int().positive().default(1),
    OPERATOR_API_URL: z.string().default("http://127.0.0.1:3100"),
    OPERATOR_API_TOKEN: z.string().default("dev-operator-token"),
    DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  })
  .parse(process.env);
