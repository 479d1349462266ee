import { z } from "zod";

// The ledger's command-line tools are processes of their own; this is their only read of the environment.
export const cliEnv = z
  .object({ DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet") })
  .parse(process.env);
