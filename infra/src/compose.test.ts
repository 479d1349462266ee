import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  mysqldExporterCollectorFlags,
  mysqldExporterGrant,
  mysqldExporterJob,
  mysqldExporterPort,
} from "./mysqld-exporter.ts";

// No Docker engine runs the tests, so the stack's wiring is checked by reading it: every name, port
// and path one file relies on must be what another file provides.
const repoRoot = resolve(import.meta.dirname, "../..");
const infra = join(repoRoot, "infra");
const readYaml = (path: string) => parse(readFileSync(join(infra, path), "utf8"), { merge: true }) as unknown;

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  working_dir?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
}
const compose = readYaml("docker-compose.yml") as { services: Record<string, Service> };
const services = compose.services;
const prometheus = readYaml("prometheus/prometheus.yml") as {
  rule_files: string[];
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
};
const collector = readYaml("otel-collector/config.yaml") as {
  exporters: { otlp: { endpoint: string; tls: { insecure: boolean } } };
  service: { pipelines: { traces: { receivers: string[]; processors: string[]; exporters: string[] } } };
};
const datasources = readYaml("grafana/provisioning/datasources/datasources.yml") as {
  datasources: { uid: string; type: string; url: string }[];
};

const apps = ["gateway", "worker", "operator-api", "platform-sim"];
const hostPort = (url: string) => {
  const { hostname, port } = new URL(url);
  return { hostname, port };
};
const service = (name: string): Service => {
  const found = services[name];
  if (!found) throw new Error(`no service ${name} in infra/docker-compose.yml`);
  return found;
};

describe("infra/docker-compose.yml", () => {
  it("runs the whole stack", () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        "demo",
        "gateway",
        "grafana",
        "jaeger",
        "migrate",
        "mysql",
        "mysqld-exporter",
        "operator-api",
        "otel-collector",
        "platform-sim",
        "prometheus",
        "redis",
        "worker",
      ].sort(),
    );
    expect(service("mysql").image).toBe("mysql:8.4");
    // A primary's settings (docs/databases.md): GTIDs on, the binary log synced at every commit.
    expect(service("mysql").command).toEqual([
      "--innodb-lock-wait-timeout=3",
      "--gtid-mode=ON",
      "--enforce-gtid-consistency=ON",
      "--sync-binlog=1",
      "--innodb-flush-log-at-trx-commit=1",
    ]);
    expect(service("redis").image).toMatch(/^redis:7/);
    expect(service("redis").command).toEqual(
      expect.arrayContaining([
        "--appendonly",
        "yes",
        "--appendfsync",
        "everysec",
        "--maxmemory-policy",
        "noeviction",
      ]),
    );
  });

  it("every dependency is a service", () => {
    for (const [name, { depends_on }] of Object.entries(services)) {
      const needs = Array.isArray(depends_on) ? depends_on : Object.keys(depends_on ?? {});
      for (const need of needs) expect(services, `${name} depends on ${need}`).toHaveProperty([need]);
    }
  });

  it("each app is built from infra/Dockerfile and started in its own folder with node --import tsx", () => {
    for (const name of apps) {
      const app = service(name);
      expect(app.build).toEqual({ context: "..", dockerfile: "infra/Dockerfile" });
      expect(app.working_dir).toBe(`/app/apps/${name}`);
      expect(app.command).toEqual(["node", "--import", "tsx", "src/main.ts"]);
      expect(existsSync(join(repoRoot, "apps", name, "src/main.ts"))).toBe(true);
    }
    expect(service("migrate").command).toEqual(["pnpm", "db:migrate"]);
    expect(service("worker").depends_on).toMatchObject({
      migrate: { condition: "service_completed_successfully" },
    });
  });

  it("the Dockerfile installs the pnpm that package.json pins", () => {
    const pinned = (
      JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { packageManager: string }
    ).packageManager;
    const dockerfile = readFileSync(join(infra, "Dockerfile"), "utf8");
    expect(dockerfile).toContain(`npm i -g ${pinned}`);
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim$/m);
    expect(dockerfile).toContain("pnpm install --frozen-lockfile");
  });

  it("every file mounted from the repository exists", () => {
    for (const [name, { volumes }] of Object.entries(services)) {
      for (const volume of volumes ?? []) {
        const source = volume.split(":")[0] ?? "";
        if (source.startsWith(".")) expect(existsSync(join(infra, source)), `${name}: ${source}`).toBe(true);
      }
    }
  });

  it("the apps reach MySQL, Redis, the collector and each other by service name and port", () => {
    for (const name of apps) {
      const env = service(name).environment ?? {};
      expect(hostPort(env.REDIS_URL ?? "").hostname).toBe("redis");
      expect(hostPort(env.DATABASE_URL ?? "").hostname).toBe("mysql");
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://otel-collector:4318");
      expect(env.OTEL_TRACES_EXPORTER).toBe("otlp");
      expect(env.OTEL_TRACES_SAMPLER).toBe("parentbased_traceidratio");
      expect(env.OTEL_TRACES_SAMPLER_ARG).toBe("1");
    }
    const platform = hostPort(service("operator-api").environment?.PLATFORM_BASE_URL ?? "");
    expect(platform).toEqual({
      hostname: "platform-sim",
      port: service("platform-sim").environment?.PLATFORM_SIM_PORT,
    });
    const operators = JSON.parse(service("platform-sim").environment?.SIM_OPERATORS ?? "[]") as {
      walletUrl: string;
    }[];
    for (const { walletUrl } of operators) {
      expect(hostPort(walletUrl)).toEqual({
        hostname: "gateway",
        port: service("gateway").environment?.GATEWAY_PORT,
      });
    }
  });

  it("Prometheus scrapes each app's METRICS_PORT under the job names of docs/metrics.md", () => {
    const jobs = Object.fromEntries(
      prometheus.scrape_configs.map((job) => [job.job_name, job.static_configs.flatMap((c) => c.targets)]),
    );
    const expected = {
      "wallet-gateway": "gateway",
      "wallet-worker": "worker",
      "wallet-operator-api": "operator-api",
    };
    expect(Object.keys(jobs).sort()).toEqual([...Object.keys(expected), mysqldExporterJob].sort());
    expect(jobs[mysqldExporterJob]).toEqual([`mysqld-exporter:${mysqldExporterPort}`]);
    for (const [job, name] of Object.entries(expected)) {
      expect(jobs[job]).toEqual([`${name}:${service(name).environment?.METRICS_PORT}`]);
    }
    expect(prometheus.rule_files).toEqual(["rules/*.yml"]);
    expect(service("prometheus").volumes).toContain("./prometheus:/etc/prometheus:ro");
  });

  it("mysqld_exporter logs in to MySQL as the user its init script makes, with the shared flags", () => {
    const exporter = service("mysqld-exporter");
    expect(exporter.image).toMatch(/^prom\/mysqld-exporter:v\d+\.\d+\.\d+$/);
    expect(exporter.command).toEqual([
      "--mysqld.address=mysql:3306",
      "--mysqld.username=exporter",
      ...mysqldExporterCollectorFlags,
    ]);
    expect(exporter.depends_on).toMatchObject({ mysql: { condition: "service_healthy" } });
    const init = "./mysql/exporter-user.sql:/docker-entrypoint-initdb.d/exporter-user.sql:ro";
    expect(service("mysql").volumes).toContain(init);
    const sql = readFileSync(join(infra, "mysql/exporter-user.sql"), "utf8");
    const password = exporter.environment?.MYSQLD_EXPORTER_PASSWORD;
    expect(sql).toContain(`CREATE USER IF NOT EXISTS 'exporter'@'%' IDENTIFIED BY '${password}'`);
    // MySQL 8.4's privilege for SHOW REPLICA STATUS, and nothing more: no SELECT on the ledger.
    expect(sql.match(/^GRANT .*$/gm)).toEqual([
      `GRANT ${mysqldExporterGrant.mysql} ON *.* TO 'exporter'@'%';`,
    ]);
  });

  it("traces go app → collector (OTLP/HTTP) → Jaeger (OTLP/gRPC, plain)", () => {
    expect(collector.service.pipelines.traces).toEqual({
      receivers: ["otlp"],
      processors: ["batch"],
      exporters: ["otlp"],
    });
    expect(collector.exporters.otlp).toEqual({ endpoint: "jaeger:4317", tls: { insecure: true } });
    expect(service("otel-collector").volumes).toContain(
      "./otel-collector/config.yaml:/etc/otelcol/config.yaml:ro",
    );
  });

  it("Grafana's datasources have the uids the dashboards use and point at the services", () => {
    const byUid = Object.fromEntries(datasources.datasources.map((source) => [source.uid, source]));
    expect(byUid.prometheus).toMatchObject({ type: "prometheus", url: "http://prometheus:9090" });
    expect(byUid.jaeger).toMatchObject({ type: "jaeger", url: "http://jaeger:16686" });
  });
});
