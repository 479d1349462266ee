import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { allExpressions } from "./promql.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const prometheusDir = "infra/prometheus";
/** Every alert's runbook_url is this plus `#` and the alert name in lower case (its heading's anchor). */
const runbookBase = "https://github.com/example/wallet-gateway/blob/main/docs/runbook.md";

function ymlFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir))
    .filter((name) => name.endsWith(".yml"))
    .sort()
    .map((name) => `${dir}/${name}`);
}
const ruleFiles = ymlFiles(`${prometheusDir}/rules`);
const testFiles = ymlFiles(`${prometheusDir}/tests`);

/** Runs promtool from the repository root; throws with its whole output when it fails. */
function promtool(...args: string[]): string {
  const run = spawnSync("promtool", args, { cwd: repoRoot, encoding: "utf8" });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") {
    throw new Error(
      "promtool is not installed. It ships in the Debian/Ubuntu package `prometheus`: " +
        "`apt-get install -y --no-install-recommends prometheus` (scripts/test.sh does this when run as root), " +
        "or put promtool from https://prometheus.io/download/ on the PATH.",
    );
  }
  if (run.error) throw run.error;
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`promtool ${args.join(" ")} failed:\n${output}`);
  return output;
}

interface AlertRule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const alerts: { file: string; rule: AlertRule }[] = ruleFiles.flatMap((file) => {
  const content = parse(readFileSync(join(repoRoot, file), "utf8")) as {
    groups: { rules: (AlertRule | { record: string })[] }[];
  };
  return content.groups.flatMap((group) =>
    group.rules.filter((rule): rule is AlertRule => "alert" in rule).map((rule) => ({ file, rule })),
  );
});

// promtool is a separate process: on a loaded machine (the integration tests run alongside) one call can
// take several seconds, so these tests get more than vitest's 5 s default.
describe("Prometheus configuration and rules (promtool)", { timeout: 60_000 }, () => {
  it("promtool check config accepts prometheus.yml and the rule files it loads", () => {
    promtool("check", "config", `${prometheusDir}/prometheus.yml`);
  });

  it.each(ruleFiles)("promtool check rules accepts %s", (file) => {
    promtool("check", "rules", file);
  });

  it.each(testFiles)("promtool test rules passes %s", (file) => {
    promtool("test", "rules", file);
  });

  it("every dashboard query is valid PromQL", () => {
    // Grafana's variables are substituted as Grafana would, then each query is checked as a recording rule.
    const queries = allExpressions(repoRoot).expressions.filter(({ file }) => file.endsWith(".json"));
    expect(queries.length).toBeGreaterThan(40);
    const rules = queries.map(({ expr }, index) => ({
      record: `dashboard_query_${index}`,
      expr: expr.replace(/\$__\w+/g, "5m").replace(/\$\{?\w+\}?/g, ".*"),
    }));
    const dir = mkdtempSync(join(tmpdir(), "dashboard-queries-"));
    try {
      const file = join(dir, "queries.yml");
      writeFileSync(file, stringify({ groups: [{ name: "dashboard-queries", rules }] }));
      promtool("check", "rules", file);
    } catch (error) {
      const where = queries.map(({ file, where }, index) => `dashboard_query_${index}: ${file} ${where}`);
      throw new Error(`${(error as Error).message}\n${where.join("\n")}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("alert catalogue", () => {
  const runbookPath = join(repoRoot, "docs/runbook.md");
  const runbook = existsSync(runbookPath) ? readFileSync(runbookPath, "utf8") : "";
  const firingTests = new Set<string>();
  for (const file of testFiles) {
    const content = parse(readFileSync(join(repoRoot, file), "utf8")) as {
      tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
    };
    for (const test of content.tests) {
      for (const check of test.alert_rule_test ?? []) {
        if ((check.exp_alerts ?? []).length > 0) firingTests.add(check.alertname);
      }
    }
  }

  it("there are alerts, each named once", () => {
    const names = alerts.map(({ rule }) => rule.alert);
    expect(names.length).toBeGreaterThanOrEqual(15);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(alerts.map(({ file, rule }) => [rule.alert, file, rule] as const))(
    "%s (%s) has a severity, a summary, a description and a runbook anchor that exists",
    (name, _file, rule) => {
      expect(["page", "ticket"]).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.length).toBeGreaterThan(10);
      expect(rule.annotations?.description?.length).toBeGreaterThan(40);
      expect(rule.annotations?.runbook_url).toBe(`${runbookBase}#${name.toLowerCase()}`);
      expect(runbook).toMatch(new RegExp(`^### ${name}$`, "m"));
    },
  );

  it.each(alerts.map(({ rule }) => rule.alert))("%s has a promtool test that shows it firing", (name) => {
    expect(firingTests).toContain(name);
  });
});
