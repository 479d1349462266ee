import { z } from "zod";

// The signing CLI's defaults: the local gateway and the dev tenant of ARCHITECTURE.md.
export const sendEnv = z
  .object({
    WALLET_URL: z.string().default("http://127.0.0.1:3000"),
    PUBLIC_KEY: z.string().default("dev-public-key"),
    SECRET_KEY: z.string().default("dev-secret-key"),
  })
  .parse(process.env);
