import { describe, expect, it } from "vitest";
import { runtimePrivileges } from "../schema/privileges.ts";
import { schemaTables } from "../testing/schema-tables.ts";
import { convergeSteps } from "./converge.ts";
import { migrations } from "./index.ts";

const tables = schemaTables.map((table) => table.name).sort();

describe("migrations", () => {
  it("the baseline makes every table of the schema, each statement a CREATE TABLE IF NOT EXISTS (re-runnable by itself)", () => {
    const baseline = migrations[0];
    expect(baseline?.name).toBe("0001_baseline");
    const made = (baseline?.steps ?? []).map((step) => {
      expect(step.sql).toMatch(/^CREATE TABLE IF NOT EXISTS `\w+` \(/);
      expect(step.sql).toMatch(/\) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin$/);
      return /^CREATE TABLE IF NOT EXISTS `(\w+)`/.exec(step.sql)?.[1];
    });
    expect(made.sort()).toEqual(tables);
  });

  it("every convergence step has a probe, so a rerun skips what already happened", () => {
    expect(convergeSteps.length).toBeGreaterThan(20);
    expect(convergeSteps.filter((step) => step.applied === undefined).map((step) => step.sql)).toEqual([]);
  });

  it("the runtime's grants name every table of the schema and nothing else (not the migrations table, which only the migrator reads)", () => {
    expect(Object.keys(runtimePrivileges).sort()).toEqual(tables);
    expect(runtimePrivileges.journal_entries).toEqual(["SELECT", "INSERT"]);
  });
});
