import { describe, expect, it } from "vitest";
import { databasePattern, migratorGrants, runtimeGrants } from "./privileges.ts";

const migrator = { user: "wallet_migrate", host: "%", password: "pw" };

describe("the grants pnpm db:grants prints", () => {
  it("a database-level grant escapes `_` and `%`, the wildcards of a database name there", () => {
    expect(databasePattern("wallet_prod")).toBe("`wallet\\_prod`");
    expect(databasePattern("a%b_c")).toBe("`a\\%b\\_c`");
    expect(migratorGrants("wallet_prod", migrator)[1]).toBe(
      "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX, REFERENCES ON `wallet\\_prod`.* TO 'wallet_migrate'@'%'",
    );
  });

  it("for MySQL with partial_revokes ON, the name as it is (names in grants are literal there)", () => {
    expect(migratorGrants("wallet_prod", migrator, { partialRevokes: true })[1]).toContain(
      " ON `wallet_prod`.* TO ",
    );
  });

  it("TRIGGER only for an install of the earlier migrator (--legacy-install)", () => {
    expect(migratorGrants("wallet", migrator)[1]).not.toContain("TRIGGER");
    expect(migratorGrants("wallet", migrator, { legacyInstall: true })[1]).toMatch(
      /, REFERENCES, TRIGGER ON `wallet`\.\* TO /,
    );
  });

  it("table-level grants name the database unescaped (no pattern is read there), and never the migrations table", () => {
    const runtime = runtimeGrants("wallet_prod", { user: "wallet_app", host: "%", password: "pw" });
    expect(runtime).toContain("GRANT SELECT, INSERT ON `wallet_prod`.`journal_entries` TO 'wallet_app'@'%'");
    expect(runtime.filter((statement) => statement.includes("schema_migrations"))).toEqual([]);
  });
});
