import { defineConfig } from "vitest/config";

// Unit tests need nothing running; integration tests (*.int.test.ts) use the real MariaDB and Redis,
// each file in a database of its own, so files run in parallel and the suite can run twice in a row.
// Three suites in faults/ run the whole system on MariaDB and Redis servers of their own, each file
// loading the whole machine: the fault suite (faults/src/faults, `pnpm test:faults`) kills, freezes
// and cuts off processes; the security suite (faults/src/security, `pnpm test:security`) attacks the
// running system; the observability suite (faults/src/observability, `pnpm test:observability`) adds
// a real Prometheus.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "{apps,packages}/*/src/**/*.test.ts",
            "{infra,bench,faults,system-tests}/src/**/*.test.ts",
          ],
          exclude: [
            "**/*.int.test.ts",
            "**/*.faults.test.ts",
            "**/*.security.test.ts",
            "**/*.obs.test.ts",
            "**/*.campaign.test.ts",
            "**/*.gate.test.ts",
            "**/node_modules/**",
          ],
        },
      },
      {
        test: {
          name: "integration",
          include: [
            "{apps,packages}/*/src/**/*.int.test.ts",
            "{infra,bench,faults,system-tests}/src/**/*.int.test.ts",
          ],
          exclude: ["**/node_modules/**"],
          globalSetup: ["./scripts/vitest-services.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // After the integration project, in the same `pnpm test` (scripts/test.sh): reads what the
        // integration tests sent from MariaDB's general log, which their global setup turned on.
        test: {
          name: "portability",
          include: ["packages/ledger/src/portability/*.gate.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["./scripts/vitest-portability.ts"],
          testTimeout: 300_000,
        },
      },
      {
        test: {
          name: "faults",
          include: ["faults/src/faults/**/*.faults.test.ts"],
          exclude: ["**/node_modules/**"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The seeded fault campaign's CI seeds and planted bugs (faults/src/campaign, `pnpm test:campaign`).
        test: {
          name: "campaign",
          include: ["faults/src/campaign/**/*.campaign.test.ts"],
          exclude: ["**/node_modules/**"],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "security",
          include: ["faults/src/security/**/*.security.test.ts"],
          exclude: ["**/node_modules/**"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "observability",
          include: ["faults/src/observability/**/*.obs.test.ts"],
          exclude: ["**/node_modules/**"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
