import { writeFileSync } from "node:fs";
import { schemaFiles } from "./json-schemas.ts";

/** `pnpm schemas`: writes `docs/schemas/*.schema.json` from the zod shapes. */
const folder = new URL("../../../docs/schemas/", import.meta.url);
for (const [file, text] of Object.entries(schemaFiles())) {
  writeFileSync(new URL(file, folder), text);
  console.log(`wrote docs/schemas/${file}`);
}
