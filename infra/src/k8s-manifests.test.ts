import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { IScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1";
import type { IDeployment } from "kubernetes-models/apps/v1";
import type { IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import type { IPodDisruptionBudget } from "kubernetes-models/policy/v1";
import type { IService } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  type Container,
  containerEnv,
  type K8sObject,
  parseYamlDocuments,
  readManifests,
  readYamlDocuments,
  schemaError,
  selects,
  unknownFields,
  yamlFiles,
} from "./k8s-manifests.ts";
import { catalogueMetrics } from "./metric-catalogue.ts";
import { mysqldExporterCollectorFlags, mysqldExporterJob, mysqldExporterPort } from "./mysqld-exporter.ts";
import { metricNamesIn } from "./promql.ts";

// infra/k8s is checked offline: each object against the schema of its kind, then the rules that
// keep a rollout safe (probes, grace, disruption budgets, autoscalers) and the wiring to the apps.
const repoRoot = resolve(import.meta.dirname, "../..");
const k8sDir = join(repoRoot, "infra/k8s");
const manifests = readManifests(k8sDir);
const objects = manifests.map((manifest) => manifest.object);
const ofKind = <T>(kind: string) => objects.filter((object) => object.kind === kind) as unknown as T[];
const deployments = ofKind<IDeployment & K8sObject>("Deployment");
const dataOf = (kind: string, field: string) =>
  new Map(
    objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o[field] as Record<string, string>]),
  );
const configMaps = dataOf("ConfigMap", "data");
const secrets = dataOf("Secret", "stringData");

interface EnvSchema {
  shape: Record<string, unknown>;
  safeParse(
    input: Record<string, string>,
  ):
    | { success: true; data: Record<string, unknown> }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}
// Each app's own zod schema, by file: @wallet/gateway already depends on @wallet/infra (its e2e
// metric test), so a dependency back would be a cycle turbo refuses.
const schemaIn = async (app: string, name: string) =>
  (
    (await import(
      /* @vite-ignore */ pathToFileURL(join(repoRoot, "apps", app, "src/env.ts")).href
    )) as Record<string, EnvSchema>
  )[name];
const apps: Record<string, { schema: EnvSchema | undefined; portVar?: string }> = {
  gateway: { schema: await schemaIn("gateway", "gatewayEnvSchema"), portVar: "GATEWAY_PORT" },
  worker: { schema: await schemaIn("worker", "workerEnvSchema") },
  "operator-api": {
    schema: await schemaIn("operator-api", "operatorApiEnvSchema"),
    portVar: "OPERATOR_API_PORT",
  },
};
const appOf = (deployment: IDeployment) => deployment.metadata?.labels?.["app.kubernetes.io/component"] ?? "";
const podSpec = (deployment: IDeployment) => {
  const spec = deployment.spec?.template.spec;
  if (!spec) throw new Error(`${deployment.metadata?.name} has no pod spec`);
  return spec;
};
const mainContainer = (deployment: IDeployment): Container => {
  const found = podSpec(deployment).containers.find((container) => container.name === appOf(deployment));
  if (!found) throw new Error(`${deployment.metadata?.name} has no container named ${appOf(deployment)}`);
  return found;
};
/** What the app's schema makes of the container's environment (defaults applied). */
const parsedEnv = (deployment: IDeployment) => {
  const result = apps[appOf(deployment)]?.schema?.safeParse(
    containerEnv(mainContainer(deployment), configMaps, secrets).env,
  );
  if (!result?.success) throw new Error(`${deployment.metadata?.name}: env does not parse`);
  return result.data;
};
const deployment = (app: string) => {
  const found = deployments.find((candidate) => appOf(candidate) === app);
  if (!found) throw new Error(`no Deployment for ${app}`);
  return found;
};
const routesOf = (app: string) => readFileSync(join(repoRoot, "apps", app, "src/app.ts"), "utf8");
const serves = (app: string, path: string) => routesOf(app).includes(`app.get("${path}"`);
const portNumber = (container: Container, port: number | string | undefined) =>
  typeof port === "number" ? port : container.ports?.find((named) => named.name === port)?.containerPort;
const preStopSleep = (container: Container) => {
  const [command, seconds] = container.lifecycle?.preStop?.exec?.command ?? [];
  return command === "sleep" ? Number(seconds) : 0;
};

describe("infra/k8s: every object is valid against the Kubernetes (and KEDA) schema of its kind", () => {
  it("reads the objects of every file", () => {
    const kinds = objects.map((object) => object.kind);
    for (const kind of ["Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "ScaledObject"])
      expect(kinds).toContain(kind);
    expect(kinds).toContain("HorizontalPodAutoscaler");
    expect(deployments.map(appOf).sort()).toEqual(Object.keys(apps).sort());
  });

  it.each(manifests.map((manifest) => [manifest.where, manifest.object] as const))(
    "%s validates, with no field the schema does not define",
    (_where, object) => {
      expect(schemaError(object)).toBeUndefined();
      expect(unknownFields(object)).toEqual([]);
    },
  );

  it("a wrong field fails: a string replica count, a misspelt probe, a string minReplicaCount", () => {
    // The copies are broken on purpose, past what their types allow: hence Object.assign.
    const gateway = structuredClone(deployment("gateway"));
    Object.assign(gateway.spec ?? {}, { replicas: "two" });
    expect(schemaError(gateway)).toMatch(/spec\/replicas must be integer/);

    const misspelt = structuredClone(deployment("gateway"));
    const container = mainContainer(misspelt);
    Object.assign(container, { readinesProbe: container.readinessProbe });
    delete container.readinessProbe;
    expect(schemaError(misspelt)).toBeUndefined();
    expect(unknownFields(misspelt)).toEqual(["spec.template.spec.containers.0.readinesProbe"]);

    const scaled = structuredClone(ofKind<K8sObject & { spec: Record<string, unknown> }>("ScaledObject")[0]);
    if (!scaled) throw new Error("no ScaledObject");
    scaled.spec.minReplicaCount = "2";
    expect(schemaError(scaled)).toMatch(/minReplicaCount must be integer/);
    expect(schemaError({ ...scaled, kind: "ScaledThing" })).toMatch(
      /no schema for keda.sh\/v1alpha1 ScaledThing/,
    );
  });

  it("kustomization.yaml lists every file but the example Secret and names the image every container runs", () => {
    const [kustomization] = readYamlDocuments(join(k8sDir, "kustomization.yaml")) as {
      resources: string[];
      namespace: string;
      images: { name: string }[];
    }[];
    const expected = yamlFiles(k8sDir).filter(
      (f) => f !== "kustomization.yaml" && f !== "secret.example.yaml",
    );
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(expected);
    expect(kustomization?.namespace).toBe("wallet");
    expect(objects.find((object) => object.kind === "Namespace")?.metadata.name).toBe("wallet");
    const images = deployments.flatMap((d) => [
      ...podSpec(d).containers,
      ...(podSpec(d).initContainers ?? []),
    ]);
    for (const { image } of images) expect(image?.split(":")[0]).toBe(kustomization?.images[0]?.name);
  });

  it.skipIf(spawnSync("kubectl", ["version", "--client"]).error !== undefined)(
    "kubectl kustomize builds the folder into valid objects, all in the wallet namespace",
    () => {
      const built = spawnSync("kubectl", ["kustomize", k8sDir], { encoding: "utf8" });
      expect(built.stderr).toBe("");
      const documents = parseYamlDocuments(built.stdout, "kubectl kustomize") as K8sObject[];
      expect(documents).toHaveLength(objects.length - 1); // all but the example Secret
      for (const object of documents) {
        expect(schemaError(object)).toBeUndefined();
        if (object.kind !== "Namespace") expect(object.metadata.namespace).toBe("wallet");
      }
    },
  );
});

describe("infra/k8s: the apps run as docker compose runs them, configured only by env their schema knows", () => {
  const compose = parse(readFileSync(join(repoRoot, "infra/docker-compose.yml"), "utf8"), {
    merge: true,
  }) as {
    services: Record<string, { working_dir: string; command: string[] }>;
  };

  it.each(Object.keys(apps))("%s: the compose image, folder and command", (app) => {
    const container = mainContainer(deployment(app));
    expect(container.workingDir).toBe(compose.services[app]?.working_dir);
    expect(container.command).toEqual(compose.services[app]?.command);
  });

  it("migrations run before the worker and operator API start, as compose's migrate does", () => {
    const ledgerScript = (
      JSON.parse(readFileSync(join(repoRoot, "packages/ledger/package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts["db:migrate"];
    for (const app of ["worker", "operator-api"]) {
      const [migrate, ...others] = podSpec(deployment(app)).initContainers ?? [];
      expect(others).toEqual([]);
      expect(migrate?.workingDir).toBe("/app/packages/ledger");
      expect(migrate?.command?.slice(0, 3)).toEqual(["node", "--import", "tsx"]);
      expect(ledgerScript).toBe(`tsx ${migrate?.command?.[3]}`);
      expect(existsSync(join(repoRoot, "packages/ledger", migrate?.command?.[3] ?? "-"))).toBe(true);
      // The migrator's own user, not the runtime's (packages/ledger/src/cli/env.ts, docs/databases.md).
      expect(Object.keys(containerEnv(migrate as Container, configMaps, secrets).env)).toEqual([
        "MIGRATE_DATABASE_URL",
      ]);
    }
  });

  it.each(Object.keys(apps))(
    "%s: every variable it is given exists and is one its env schema knows",
    (app) => {
      const schema = apps[app]?.schema;
      if (!schema?.shape) throw new Error(`no env schema with a shape for ${app}`);
      const { env, missing } = containerEnv(mainContainer(deployment(app)), configMaps, secrets);
      expect(missing).toEqual([]);
      expect(Object.keys(env).filter((name) => !(name in schema.shape))).toEqual([]);
      const result = schema.safeParse(env);
      expect(
        result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      ).toEqual([]);
    },
  );

  it("an unknown variable or a missing Secret key is caught", () => {
    const container = structuredClone(mainContainer(deployment("gateway")));
    container.env = [
      ...(container.env ?? []),
      { name: "GATEWAY_PROT", value: "3000" },
      { name: "DATABASE_URL", valueFrom: { secretKeyRef: { name: "wallet-secrets", key: "DATABSE_URL" } } },
    ];
    const { env, missing } = containerEnv(container, configMaps, secrets);
    expect(missing).toHaveLength(1);
    expect(Object.keys(env).filter((name) => !(name in (apps.gateway?.schema?.shape ?? {})))).toEqual([
      "GATEWAY_PROT",
    ]);
  });

  it("secret.example.yaml holds placeholders only, as stringData", () => {
    const [secret] = readYamlDocuments(join(k8sDir, "secret.example.yaml")) as K8sObject[];
    expect(secret?.data).toBeUndefined();
    for (const [key, value] of Object.entries(secrets.get("wallet-secrets") ?? {}))
      expect(value, key).toContain("CHANGE-ME");
  });
});

describe("infra/k8s: rollouts, probes and disruptions", () => {
  it.each(Object.keys(apps))("%s: probes on its own endpoints and ports, metrics scraped per pod", (app) => {
    const d = deployment(app);
    const container = mainContainer(d);
    const env = parsedEnv(d);
    const { readinessProbe: ready, livenessProbe: live } = container;
    expect(portNumber(container, "metrics")).toBe(env.METRICS_PORT);
    expect(d.spec?.template.metadata?.annotations?.["prometheus.io/port"]).toBe(String(env.METRICS_PORT));
    const portVar = apps[app]?.portVar;
    if (portVar) {
      // An HTTP app: liveness on /healthz, readiness on /readyz wherever the app serves one.
      expect(portNumber(container, "http")).toBe(env[portVar]);
      expect(live?.httpGet).toMatchObject({ path: "/healthz", port: "http" });
      expect(ready?.httpGet).toMatchObject({
        path: serves(app, "/readyz") ? "/readyz" : "/healthz",
        port: "http",
      });
      for (const probe of [ready, live, container.startupProbe])
        if (probe?.httpGet) expect(serves(app, probe.httpGet.path ?? ""), probe.httpGet.path).toBe(true);
    } else {
      // The worker serves its probes on its metrics port (packages/telemetry metrics-server.ts).
      expect(live?.httpGet).toMatchObject({ path: "/healthz", port: "metrics" });
      expect(ready?.httpGet).toMatchObject({ path: "/readyz", port: "metrics" });
    }
    // Every app serves /readyz now: readiness is never the bare liveness check.
    expect(ready?.httpGet?.path).toBe("/readyz");
  });

  it("Prometheus job names of docs/metrics.md are the pods' app.kubernetes.io/name", () => {
    const prometheus = parse(readFileSync(join(repoRoot, "infra/prometheus/prometheus.yml"), "utf8")) as {
      scrape_configs: { job_name: string }[];
    };
    const names = deployments.map((d) => d.spec?.template.metadata?.labels?.["app.kubernetes.io/name"]);
    // And the database servers' exporters (infra/k8s/database-monitoring), all under one job.
    expect([...names, mysqldExporterJob].sort()).toEqual(
      prometheus.scrape_configs.map((job) => job.job_name).sort(),
    );
  });

  it.each(Object.keys(apps))(
    "%s: the grace period outlasts the preStop sleep plus a callback deadline",
    (app) => {
      const d = deployment(app);
      const deadlineMs = Number(parsedEnv(app === "worker" ? deployment("gateway") : d).CALLBACK_DEADLINE_MS);
      const sleep = preStopSleep(mainContainer(d));
      // HTTP apps wait until their endpoint is gone before SIGTERM; the worker has no endpoint.
      expect(sleep > 0).toBe(apps[app]?.portVar !== undefined);
      expect(podSpec(d).terminationGracePeriodSeconds ?? 30).toBeGreaterThan(sleep + deadlineMs / 1000);
    },
  );

  it.each(Object.keys(apps))("%s: non-root, no privileges, read-only root, requests and limits", (app) => {
    const spec = podSpec(deployment(app));
    expectRestrictedPod(spec);
    // tsx writes its compile cache under /tmp.
    for (const container of [...spec.containers, ...(spec.initContainers ?? [])])
      expect(container.volumeMounts?.map((mount) => mount.mountPath)).toContain("/tmp");
  });

  it("exactly one PodDisruptionBudget selects each Deployment's pods", () => {
    const budgets = ofKind<IPodDisruptionBudget>("PodDisruptionBudget");
    for (const d of deployments) {
      const labels = d.spec?.template.metadata?.labels;
      expect(selects(d.spec?.selector, labels), `${d.metadata?.name} selects its own pods`).toBe(true);
      expect(
        budgets.filter((budget) => selects(budget.spec?.selector, labels)),
        d.metadata?.name,
      ).toHaveLength(1);
    }
    expect(budgets).toHaveLength(deployments.length);
  });

  it("each Service selects one Deployment's pods, on a port its container names", () => {
    for (const service of ofKind<IService & K8sObject>("Service")) {
      const targets = deployments.filter((d) =>
        selects({ matchLabels: service.spec?.selector }, d.spec?.template.metadata?.labels),
      );
      expect(targets.map(appOf), service.metadata.name).toHaveLength(1);
      const container = mainContainer(targets[0] as IDeployment);
      for (const port of service.spec?.ports ?? [])
        expect(portNumber(container, port.targetPort), `${service.metadata.name}:${port.name}`).toBeDefined();
    }
  });

  it("an HPA scales the gateway Deployment on CPU; nothing else sets the gateway's replicas", () => {
    const [hpa, ...others] = ofKind<IHorizontalPodAutoscaler>("HorizontalPodAutoscaler");
    expect(others).toEqual([]);
    expect(hpa?.spec?.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: "wallet-gateway",
    });
    expect(deployment("gateway").metadata?.name).toBe("wallet-gateway");
    expect(hpa?.spec?.metrics?.map((metric) => metric.resource?.name)).toEqual(["cpu"]);
    expect(hpa?.spec?.minReplicas).toBeGreaterThanOrEqual(2);
    expect(deployment("gateway").spec?.replicas).toBeUndefined();
  });

  it("a KEDA ScaledObject scales the worker Deployment on the ledger backlog, counted once", () => {
    const [scaled, ...others] = ofKind<IScaledObject>("ScaledObject");
    expect(others).toEqual([]);
    expect(scaled?.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: "wallet-worker" });
    expect(deployment("worker").metadata?.name).toBe("wallet-worker");
    expect(deployment("worker").spec?.replicas).toBeUndefined();
    // Never 0: gateways are ready only while a worker heartbeats, and workers report the backlog.
    expect(scaled?.spec.minReplicaCount).toBeGreaterThanOrEqual(2);
    const [trigger, ...moreTriggers] = scaled?.spec.triggers ?? [];
    expect(moreTriggers).toEqual([]);
    expect(trigger?.type).toBe("prometheus");
    const query = trigger?.metadata.query ?? "";
    const catalogue = catalogueMetrics(repoRoot);
    expect(metricNamesIn(query)).toEqual(["wallet_ledger_queue_depth"]);
    expect(catalogue.get("wallet_ledger_queue_depth")).toBe("gauge");
    // Every worker reports every partition: `max by (partition)` first, or the sum grows with replicas.
    expect(query.replace(/\s+/g, " ")).toMatch(/^sum\(max by \(partition\) \(wallet_ledger_queue_depth\b/);
  });
});

describe("infra/k8s/database-monitoring: one mysqld_exporter per database server", () => {
  const dir = join(k8sDir, "database-monitoring");
  const exporters = readManifests(dir);
  const exporterDeployments = exporters.map((manifest) => manifest.object as IDeployment & K8sObject);

  it.each(exporters.map((manifest) => [manifest.where, manifest.object] as const))(
    "%s validates, with no field the schema does not define",
    (_where, object) => {
      expect(object.kind).toBe("Deployment");
      expect(schemaError(object)).toBeUndefined();
      expect(unknownFields(object)).toEqual([]);
    },
  );

  it("each logs in as the exporter's user to its own server, with the shared flags, scraped as job mysql", () => {
    expect(exporterDeployments.length).toBeGreaterThanOrEqual(2);
    const addresses = new Set<string>();
    for (const exporter of exporterDeployments) {
      const labels = exporter.spec?.template.metadata?.labels;
      expect(selects(exporter.spec?.selector, labels), exporter.metadata.name).toBe(true);
      expect(labels?.["app.kubernetes.io/name"]).toBe(mysqldExporterJob);
      const [container, ...others] = podSpec(exporter).containers;
      expect(others).toEqual([]);
      expect(container?.image).toMatch(/^prom\/mysqld-exporter:v\d+\.\d+\.\d+$/);
      const [address, user, ...flags] = container?.args ?? [];
      expect(address).toMatch(/^--mysqld\.address=[\w.-]+:\d+$/);
      addresses.add(address ?? "");
      expect(user).toBe("--mysqld.username=exporter");
      expect(flags).toEqual([...mysqldExporterCollectorFlags]);
      expect(container?.env).toEqual([
        {
          name: "MYSQLD_EXPORTER_PASSWORD",
          valueFrom: { secretKeyRef: { name: "wallet-mysqld-exporter", key: "MYSQLD_EXPORTER_PASSWORD" } },
        },
      ]);
      expect(portNumber(container as Container, "metrics")).toBe(mysqldExporterPort);
      expect(exporter.spec?.template.metadata?.annotations?.["prometheus.io/port"]).toBe(
        String(mysqldExporterPort),
      );
      // Probes on the landing page: /metrics would query the database server at every probe.
      for (const probe of [container?.readinessProbe, container?.livenessProbe])
        expect(probe?.httpGet).toMatchObject({ path: "/", port: "metrics" });
    }
    expect(addresses.size).toBe(exporterDeployments.length);
  });

  it("each pod meets the namespace's restricted Pod Security profile, with requests and limits", () => {
    for (const exporter of exporterDeployments) expectRestrictedPod(podSpec(exporter));
  });

  it("its kustomization lists every file, in the wallet namespace", () => {
    const [kustomization] = readYamlDocuments(join(dir, "kustomization.yaml")) as {
      resources: string[];
      namespace: string;
    }[];
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(
      yamlFiles(dir).filter((file) => file !== "kustomization.yaml"),
    );
    expect(kustomization?.namespace).toBe("wallet");
  });

  it.skipIf(spawnSync("kubectl", ["version", "--client"]).error !== undefined)(
    "kubectl kustomize builds it into valid objects",
    () => {
      const built = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
      expect(built.stderr).toBe("");
      const documents = parseYamlDocuments(built.stdout, "kubectl kustomize") as K8sObject[];
      expect(documents).toHaveLength(exporters.length);
      for (const object of documents) expect(schemaError(object)).toBeUndefined();
    },
  );
});

/**
 * The restricted Pod Security profile, and requests and limits on every container: non-root, no
 * service links or token, no privilege escalation, a read-only root, every capability dropped.
 */
function expectRestrictedPod(spec: ReturnType<typeof podSpec>) {
  expect(spec.securityContext).toMatchObject({
    runAsNonRoot: true,
    seccompProfile: { type: "RuntimeDefault" },
  });
  expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(spec.enableServiceLinks).toBe(false);
  expect(spec.automountServiceAccountToken).toBe(false);
  for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
    expect(container.securityContext, container.name).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    for (const bound of ["requests", "limits"] as const)
      expect(Object.keys(container.resources?.[bound] ?? {}).sort(), `${container.name} ${bound}`).toEqual([
        "cpu",
        "memory",
      ]);
  }
}
