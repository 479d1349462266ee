import { readFileSync } from "node:fs";
import type { Step } from "./converge.ts";

const folder = new URL("../../migrations/", import.meta.url);

/**
 * A migration written as SQL (`migrations/*.sql`): its statements, one a step, separated by a line
 * `-- step`; comment lines dropped. Each must be re-runnable by itself (CREATE TABLE IF NOT EXISTS):
 * it has no probe (`migrations.test.ts` holds every such statement to it).
 */
export function sqlSteps(file: string): Step[] {
  return readFileSync(new URL(file, folder), "utf8")
    .split(/^-- step$/m)
    .map((part) =>
      part
        .split("\n")
        .filter((line) => !line.startsWith("--"))
        .join("\n")
        .trim()
        .replace(/;$/, ""),
    )
    .filter((sql) => sql.length > 0)
    .map((sql) => ({ sql }));
}
