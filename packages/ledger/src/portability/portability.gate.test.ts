import { afterAll, describe, expect, inject, it } from "vitest";
import { runtimePrivileges } from "../schema/privileges.ts";
import { clearStatementCapture, type SentStatements, sentStatements } from "../testing/general-log.ts";
import { describeSiteProblems, type StatementSite, statementCensus } from "./census.ts";
import { coverage, describeCoverage } from "./census-coverage.ts";
import { describeProblems, portabilityProblems } from "./check.ts";
import { sizeReport } from "./size-checks.ts";

// Runs after the integration tests (scripts/test.sh): every statement their migrators and runtime
// users sent to MariaDB, from its general log, held to the common dialect of forbidden.ts.
const serverUrl = inject("mysqlServerUrl");
let sent: SentStatements | undefined;
const read = async () => {
  sent ??= await sentStatements(serverUrl);
  return sent;
};
afterAll(() => clearStatementCapture(serverUrl));
// The census (`census.ts`): every statement the product's source can send, read from the source.
let census: StatementSite[] | undefined;
const sites = () => {
  census ??= statementCensus();
  return census;
};

describe("what the product sent during the integration tests", () => {
  it("was captured: statements from both the migrators and the runtime users", async () => {
    const { statements, shapes, users } = await read();
    console.log(
      `portability gate: ${statements} statements of ${shapes.size} shapes read from the general log`,
    );
    // Empty when the integration tests did not run first (run `pnpm test`, which runs both).
    expect([...users].sort()).toEqual(["ad_", "mg_", "rt_"]);
    expect(shapes.size).toBeGreaterThan(200);
  });

  it("is all in the common dialect of MySQL 8.4, MariaDB 10.11 and TiDB", async () => {
    const problems = [...(await read()).shapes.keys()].flatMap((shape) => portabilityProblems(shape));
    expect(describeProblems(problems)).toBe("");
  });

  it("every statement the product's source can send is in the common dialect, whether a test ran it or not", () => {
    expect(describeSiteProblems(sites())).toBe("");
  });

  it("covers every statement the product's source can send: each seen, and none sent that the census does not know", async () => {
    const { shapes, cut } = await read();
    const result = coverage(sites(), shapes.keys(), cut);
    console.log(describeCoverage(result));
    expect(result.unseen.map((site) => `${site.id}  ${site.excerpt}`)).toEqual([]);
    expect(result.unknown).toEqual([]);
  });

  it("locks (FOR UPDATE) only tables the runtime may UPDATE or DELETE, as MySQL 8.4 requires of a locking read", async () => {
    const tables = runtimePrivileges as Record<string, string[]>;
    const refused = new Set<string>();
    for (const [shape, { user }] of (await read()).shapes) {
      if (!user.startsWith("rt_")) continue;
      // A round trip may carry several statements; literals are blanked, so `;` only separates them.
      for (const statement of shape.split(";")) {
        if (!/\bFOR UPDATE\b/i.test(statement)) continue;
        for (const [, table = ""] of statement.matchAll(/\b(?:FROM|JOIN)\s+`?(\w+)`?/gi)) {
          const granted = tables[table];
          if (granted && !granted.includes("UPDATE") && !granted.includes("DELETE"))
            refused.add(`${table} (granted ${granted.join(", ")}): ${statement.slice(0, 200)}`);
        }
      }
    }
    expect([...refused]).toEqual([]);
  });

  it("keeps each growing shape within its size budget, and no large shape goes without one (size-budgets.ts)", async () => {
    const { budgeted, problems } = sizeReport((await read()).shapes);
    for (const { budget, largest, shapes } of budgeted)
      console.log(
        `size budget: ${budget.name}: largest ${largest} bytes as logged (${shapes} shapes), budget ${budget.bytes} bytes`,
      );
    expect(problems).toEqual([]);
  });
});
