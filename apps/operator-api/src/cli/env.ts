import { z } from "zod";

// `pnpm tokens` is a process of its own; this is its only read of the environment.
export const tokensCliEnv = z
  .object({ DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet") })
  .parse(process.env);
