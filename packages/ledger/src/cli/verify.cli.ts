import { stringifyJson } from "@wallet/contracts/json";
import { createDatabase } from "../db.ts";
import { verifyLedger } from "../verify.ts";
import { cliEnv } from "./env.ts";

// `pnpm ledger:verify`: exit 0 with "ledger ok", 1 when a wallet fails (each problem a JSON line on
// stderr), 2 when the ledger could not be read at all (one line saying why, no stack: a wrong
// DATABASE_URL at 3 a.m. must not read as a broken ledger, nor as a crash).
const { db, close } = createDatabase({ url: cliEnv.DATABASE_URL, poolSize: 1 });
try {
  const { wallets, problems } = await verifyLedger(db);
  if (problems.length === 0) {
    console.log(`ledger ok: ${wallets} wallets, every balance equals its journal and none is negative`);
  } else {
    for (const problem of problems) console.error(stringifyJson(problem));
    console.error(`ledger BROKEN: ${problems.length} of ${wallets} wallets fail`);
    process.exitCode = 1;
  }
} catch (error) {
  const cause = (error as { cause?: unknown }).cause;
  const reason =
    cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  console.error(`ledger:verify could not read the ledger at ${new URL(cliEnv.DATABASE_URL).host}: ${reason}`);
  process.exitCode = 2;
} finally {
  await close();
}
