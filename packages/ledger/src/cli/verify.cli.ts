import { stringifyJson } from "@wallet/contracts/json";
import { createDatabase } from "../db.ts";
import { verifyLedger } from "../verify.ts";
import { cliEnv } from "./env.ts";

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
} finally {
  await close();
}
