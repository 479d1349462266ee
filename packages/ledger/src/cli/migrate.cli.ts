import { migrateDatabase } from "../migrate.ts";
import { cliEnv } from "./env.ts";

const started = Date.now();
await migrateDatabase(cliEnv.DATABASE_URL);
const where = new URL(cliEnv.DATABASE_URL);
console.log(`migrations applied to ${where.host}${where.pathname} in ${Date.now() - started} ms`);
