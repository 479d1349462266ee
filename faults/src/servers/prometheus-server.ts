import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import { ServerProcess } from "@wallet/system-tests/harness/processes/server-process";

const run = promisify(execFile);

/** A scrape job as `infra/prometheus/prometheus.yml` names them, with the loopback ports of its targets. */
export interface ScrapeJob {
  job: string;
  ports: number[];
}

/** One series of a query result: its labels and its [unix seconds, value] points (NaN and ±Inf dropped). */
export interface Series {
  metric: Record<string, string>;
  points: Array<[number, number]>;
}

/** An alert as `/api/v1/alerts` lists it: only pending and firing alerts are listed. */
export interface ActiveAlert {
  labels: Record<string, string> & { alertname: string };
  state: "pending" | "firing";
  activeAt: string;
}

/**
 * A real Prometheus server (Debian's `prometheus`, the one that ships promtool) of the suite's own:
 * a temporary data directory, a free port, the repository's alert and recording rules, and a
 * scrape and rule evaluation every `intervalSeconds`, so seconds of load are enough points.
 */
export class PrometheusServer {
  private constructor(
    private readonly process: ServerProcess,
    readonly port: number,
    readonly intervalSeconds: number,
  ) {}

  static async start(
    dir: string,
    options: { jobs: ScrapeJob[]; ruleFiles: string[]; intervalSeconds?: number },
  ): Promise<PrometheusServer> {
    const intervalSeconds = options.intervalSeconds ?? 1;
    const dataDir = `${dir}/prometheus`;
    await mkdir(dataDir, { recursive: true });
    const configFile = `${dir}/prometheus.yml`;
    await writeFile(configFile, configYaml(options.jobs, options.ruleFiles, intervalSeconds));
    await run("promtool", ["check", "config", configFile]);
    const port = await freePort();
    const server = new PrometheusServer(
      new ServerProcess(
        "prometheus",
        "prometheus",
        [
          `--config.file=${configFile}`,
          `--storage.tsdb.path=${dataDir}`,
          `--web.listen-address=127.0.0.1:${port}`,
          "--log.level=warn",
        ],
        `${dir}/prometheus.log`,
      ),
      port,
      intervalSeconds,
    );
    server.process.launch();
    await until(
      "Prometheus",
      async () => {
        const response = await fetch(`${server.url}/-/ready`);
        if (response.status !== 200) throw new Error(`/-/ready answered ${response.status}`);
      },
      30_000,
    );
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A range query, as a Grafana time-series panel runs it. */
  async queryRange(expr: string, start: number, end: number, stepSeconds: number): Promise<Series[]> {
    const params = new URLSearchParams({
      query: expr,
      start: String(start),
      end: String(end),
      step: String(stepSeconds),
    });
    const data = await this.api<{
      result: Array<{ metric: Record<string, string>; values: [number, string][] }>;
    }>(`/api/v1/query_range?${params}`);
    return data.result.map((series) => ({ metric: series.metric, points: finitePoints(series.values) }));
  }

  /** An instant query, as a Grafana stat panel runs it. */
  async query(expr: string, time: number): Promise<Series[]> {
    const params = new URLSearchParams({ query: expr, time: String(time) });
    const data = await this.api<{
      resultType: string;
      result: Array<{ metric: Record<string, string>; value: [number, string] }> | [number, string];
    }>(`/api/v1/query?${params}`);
    if (data.resultType === "scalar")
      return [{ metric: {}, points: finitePoints([data.result as [number, string]]) }];
    const vector = data.result as Array<{ metric: Record<string, string>; value: [number, string] }>;
    return vector.map((sample) => ({ metric: sample.metric, points: finitePoints([sample.value]) }));
  }

  /** The pending and firing alerts right now. */
  async alerts(): Promise<ActiveAlert[]> {
    return (await this.api<{ alerts: ActiveAlert[] }>("/api/v1/alerts")).alerts;
  }

  /** Every alerting rule the server loaded, by name. */
  async alertRuleNames(): Promise<string[]> {
    const data = await this.api<{ groups: Array<{ rules: Array<{ type: string; name: string }> }> }>(
      "/api/v1/rules?type=alert",
    );
    return data.groups.flatMap((group) => group.rules.map((rule) => rule.name));
  }

  /** The scrape targets' health, `job instance` → up. */
  async targets(): Promise<Array<{ job: string; health: string }>> {
    const data = await this.api<{ activeTargets: Array<{ labels: { job: string }; health: string }> }>(
      "/api/v1/targets?state=active",
    );
    return data.activeTargets.map((target) => ({ job: target.labels.job, health: target.health }));
  }

  /** Each job's slowest scrape and lowest `up` in the window: why an `up`-based alert went off. */
  async scrapeHealth(start: number, end: number): Promise<string> {
    const span = `${Math.max(1, Math.round(end - start))}s`;
    const slowest = await this.query(`max by (job) (max_over_time(scrape_duration_seconds[${span}]))`, end);
    const down = await this.query(`min by (job) (min_over_time(up[${span}]))`, end);
    return [
      ...slowest.map((series) => `${series.metric.job} slowest scrape ${series.points[0]?.[1].toFixed(3)} s`),
      ...down.map((series) => `${series.metric.job} min up ${series.points[0]?.[1]}`),
    ].join(", ");
  }

  private async api<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`Prometheus ${path}: ${body.error ?? response.status}`);
    return body.data;
  }

  stop(): Promise<void> {
    return this.process.signal("SIGKILL");
  }
}

function finitePoints(values: [number, string][]): Array<[number, number]> {
  return values
    .map(([time, value]): [number, number] => [time, Number(value)])
    .filter(([, value]) => Number.isFinite(value));
}

/** The test's Prometheus configuration: production's jobs and rules, scraped and evaluated every few seconds. */
function configYaml(jobs: ScrapeJob[], ruleFiles: string[], intervalSeconds: number): string {
  const scrapeConfigs = jobs.map(
    (job) =>
      `  - job_name: ${job.job}\n    static_configs:\n      - targets: [${job.ports.map((port) => `"127.0.0.1:${port}"`).join(", ")}]`,
  );
  return [
    "global:",
    `  scrape_interval: ${intervalSeconds}s`,
    `  scrape_timeout: ${intervalSeconds}s`,
    `  evaluation_interval: ${intervalSeconds}s`,
    "rule_files:",
    ...ruleFiles.map((file) => `  - ${JSON.stringify(file)}`),
    "scrape_configs:",
    ...scrapeConfigs,
    "",
  ].join("\n");
}
