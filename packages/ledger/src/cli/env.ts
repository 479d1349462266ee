import { z } from "zod";

// The ledger's command-line tools are processes of their own; this is their only read of the environment.
const parsed = z
  .object({
    DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
    // The migrator's own user (docs/databases.md, "Users and grants"); the runtime's URL when unset.
    MIGRATE_DATABASE_URL: z.string().optional(),
  })
  .parse(process.env);

export const cliEnv = {
  DATABASE_URL: parsed.DATABASE_URL,
  MIGRATE_DATABASE_URL: parsed.MIGRATE_DATABASE_URL ?? parsed.DATABASE_URL,
};
