import { readFileSync, writeFileSync } from "node:fs";
import { withLimitsTable } from "./limits-table.ts";

/** `pnpm limits:table`: rewrites docs/contract-decisions.md's limits table from `limits.ts`. */
const file = new URL("../../../docs/contract-decisions.md", import.meta.url);
const updated = withLimitsTable(readFileSync(file, "utf8"));
if (updated === undefined) {
  console.error("docs/contract-decisions.md has no limits table markers (limits-table.ts)");
  process.exit(1);
}
writeFileSync(file, updated);
console.log("wrote the limits table of docs/contract-decisions.md");
