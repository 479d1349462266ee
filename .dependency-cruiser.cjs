/**
 * The import graph's rules, checked by `pnpm check` (`depcruise`, scripts/check-imports.sh):
 * no circle anywhere, and the layers point one way: apps may use packages, never the reverse; no app
 * or package imports an app other than itself, a test suite (bench, faults, system-tests) or, outside
 * its tests, a `testing/` helper; and none but the ledger imports a database client.
 */
const testFile = "(\\.test\\.ts$|/testing/|\\.suite\\.ts$)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle means two files own one idea: fold it into one, or move the shared part below both.",
      from: {},
      to: { circular: true },
    },
    {
      name: "packages-below-apps",
      severity: "error",
      comment: "A package is a library of the apps: importing one would tie it to that app's process.",
      from: { path: "^packages/" },
      to: { path: "^apps/" },
    },
    {
      name: "apps-independent",
      severity: "error",
      comment: "An app is a process of its own: what two apps share belongs in a package.",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    {
      name: "no-test-harness-in-product",
      severity: "error",
      comment: "Product code never imports a test suite's harness (bench, faults, system-tests).",
      from: { path: "^(apps|packages)/" },
      to: { path: "^(bench|faults|system-tests)/" },
    },
    {
      name: "testing-helpers-only-in-tests",
      severity: "error",
      comment:
        "`testing/` helpers (test databases, fake loads) are for tests and suites, not for what ships.",
      from: { path: "^(apps|packages)/", pathNot: testFile },
      to: { path: "/src/testing/" },
    },
    {
      name: "sql-only-in-ledger",
      severity: "error",
      comment:
        "No SQL outside packages/ledger (STYLE.md): only the ledger reaches the database, so the portability gate's census (packages/ledger/src/portability/census.ts), which reads the ledger's source, sees every statement the product can send.",
      from: { path: "^(apps|packages)/", pathNot: [testFile, "^packages/ledger/"] },
      to: { path: "(^|/)node_modules/(mysql2|drizzle-orm)/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "An import the checker cannot resolve is a graph it cannot check.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // node_modules are kept as leaves (not followed): `sql-only-in-ledger` needs to see imports of them.
    exclude: { path: "(^|/)(\\.tools|dist|results)/" },
    tsConfig: { fileName: "tsconfig.base.json" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "node", "default"],
      extensions: [".ts", ".js", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
