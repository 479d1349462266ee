import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Secret, Service } from "kubernetes-models/v1";
import { parseAllDocuments } from "yaml";

/** Any Kubernetes object as read from YAML: typed only as far as every kind shares it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
export type PodSpec = NonNullable<NonNullable<IDeployment["spec"]>["template"]["spec"]>;
export type Container = PodSpec["containers"][number];

/** One object and where it came from (`file#index`), for failure messages. */
export interface Manifest {
  where: string;
  file: string;
  object: K8sObject;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Every YAML document of a file. Read as YAML 1.1, as Kubernetes reads it (sigs.k8s.io/yaml): there an
 * unquoted `on`, `yes` or `off` is a boolean, which a ConfigMap's string values then refuse.
 */
export function parseYamlDocuments(text: string, where: string): unknown[] {
  return parseAllDocuments(text, { version: "1.1" }).map((document) => {
    if (document.errors.length > 0) throw new Error(`${where}: ${document.errors.join("; ")}`);
    return document.toJS() as unknown;
  });
}

export const readYamlDocuments = (path: string) => parseYamlDocuments(readFileSync(path, "utf8"), path);

/** The folder's objects, file by file, leaving out kustomize's own `kustomization.yaml`. */
export function readManifests(dir: string): Manifest[] {
  return yamlFiles(dir)
    .filter((file) => file !== "kustomization.yaml")
    .flatMap((file) =>
      readYamlDocuments(join(dir, file))
        .filter((document) => document !== null)
        .map((document, index) => {
          if (!isObject(document) || typeof document.kind !== "string")
            throw new Error(`${file}#${index} is not a Kubernetes object`);
          return { where: `${file}#${index} (${document.kind})`, file, object: document as K8sObject };
        }),
    );
}

export function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort();
}

// The schema of each kind the manifests use (kubernetes-models: the OpenAPI schemas of Kubernetes
// itself; @kubernetes-models/keda: KEDA's CRDs). A kind missing here is a failure, never a skip.
const models = [
  Namespace,
  ConfigMap,
  Secret,
  Service,
  Deployment,
  PodDisruptionBudget,
  HorizontalPodAutoscaler,
  ScaledObject,
] as const;
const modelByType = new Map<string, (typeof models)[number]>(
  models.map((model) => [`${model.apiVersion}/${model.kind}`, model]),
);

/** Throws the schema's errors for the object (`data/spec/replicas must be integer, …`). */
export function validateAgainstSchema(object: K8sObject): void {
  const model = modelByType.get(`${object.apiVersion}/${object.kind}`);
  if (!model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  // The object is untyped YAML: checking it is what validate() is for.
  new model(object as never).validate();
}

/** The schema's complaint about the object, or undefined when it has none. */
export function schemaError(object: K8sObject): string | undefined {
  try {
    validateAgainstSchema(object);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const probe = Symbol("probe");

/**
 * Fields the schema does not define (`readinesProbe`, `replica`). The schemas leave
 * additionalProperties open, so a misspelt field passes validate() and the API server drops it.
 * Each field in turn is given a value no schema accepts (a symbol): a field the schema knows is then
 * refused, one it does not know still passes. Expects an object that validates.
 */
export function unknownFields(object: K8sObject): string[] {
  const unknown: string[] = [];
  const visit = (node: unknown, path: (string | number)[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, [...path, index]);
      });
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const copy = structuredClone(object);
      let parent: unknown = copy;
      for (const step of path) parent = (parent as Record<string | number, unknown>)[step];
      (parent as Record<string, unknown>)[key] = probe;
      if (schemaError(copy) === undefined) unknown.push([...path, key].join("."));
      else visit(value, [...path, key]);
    }
  };
  visit(object, []);
  return unknown;
}

/** Whether a `matchLabels` selector selects pods with these labels (an empty selector: none). */
export function selects(
  selector: { matchLabels?: Record<string, string> } | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const wanted = Object.entries(selector?.matchLabels ?? {});
  return wanted.length > 0 && wanted.every(([key, value]) => labels?.[key] === value);
}

/**
 * The environment a container starts with: its `envFrom` ConfigMaps and Secrets, then its own `env`,
 * with values from the ConfigMaps and Secrets given. `missing` lists what it reads that is not there.
 */
export function containerEnv(
  container: Container,
  configMaps: Map<string, Record<string, string>>,
  secrets: Map<string, Record<string, string>>,
): { env: Record<string, string>; missing: string[] } {
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const { configMapRef, secretRef } of container.envFrom ?? []) {
    const [kind, name, data] = configMapRef
      ? ["ConfigMap", configMapRef.name, configMaps.get(configMapRef.name ?? "")]
      : ["Secret", secretRef?.name, secrets.get(secretRef?.name ?? "")];
    if (data) Object.assign(env, data);
    else missing.push(`${kind} ${name}`);
  }
  for (const variable of container.env ?? []) {
    const fromConfigMap = variable.valueFrom?.configMapKeyRef;
    const fromSecret = variable.valueFrom?.secretKeyRef;
    let value = variable.value;
    if (fromConfigMap) value = configMaps.get(fromConfigMap.name ?? "")?.[fromConfigMap.key];
    if (fromSecret) value = secrets.get(fromSecret.name ?? "")?.[fromSecret.key];
    if (value === undefined) missing.push(`${variable.name}: ${JSON.stringify(variable.valueFrom)}`);
    else env[variable.name] = value;
  }
  return { env, missing };
}
