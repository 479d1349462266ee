import { createHash } from "node:crypto";
import fc from "fast-check";
import { type Answer, answerProblems } from "./answer-check.ts";
import { type OpenApiDocument, type Operation, operationsOf } from "./operations.ts";
import {
  type ClientHooks,
  type GeneratedRequest,
  kindsFor,
  type RequestKind,
  requestsOf,
} from "./requests.ts";

export interface CheckOptions {
  baseUrl: string;
  /** The document as the server serves it. */
  document: OpenApiDocument;
  hooks: ClientHooks;
  seed: number;
  /** Requests in all, shared among the operations and, within each, among the kinds that apply. */
  requests: number;
  /** A 5xx the test accepts for what it is (none unless said): every other one is a problem. */
  tolerated5xx?: (answer: Answer) => boolean;
  timeoutMs?: number;
  /** Told of each answer as it comes (a test's own look at what was answered). */
  onAnswer?: (request: GeneratedRequest, answer: Answer) => void;
}

export interface Problem {
  route: string;
  status: number;
  problem: string;
  /** The first request that showed it. */
  example: string;
  times: number;
}

export interface CheckReport {
  seed: number;
  sent: number;
  /** `METHOD /path` → status → answers. */
  counts: Map<string, Map<number, number>>;
  problems: Problem[];
  ms: number;
}

/** How the requests of an operation are shared among the kinds: mostly valid, every kind at least once. */
const kindWeights: Record<RequestKind, number> = {
  examples: 4,
  valid: 6,
  parameter: 2,
  body: 4,
  malformed: 1,
  oversized: 1,
  content: 1,
};

/** A seed per operation and kind: adding an operation to the document leaves the others' requests as they were. */
const seedOf = (seed: number, route: string, kind: string) =>
  createHash("sha256").update(`${seed}:${route}:${kind}`).digest().readInt32LE(0);

/** Every request of the run, generated up front from the seed: the same seed, the same requests. */
export function generateRequests(
  operations: Operation[],
  options: Pick<CheckOptions, "hooks" | "seed" | "requests">,
) {
  const perOperation = options.requests / operations.length;
  return operations.flatMap((operation) => {
    const kinds = kindsFor(operation);
    const total = kinds.reduce((sum, kind) => sum + kindWeights[kind], 0);
    return kinds.flatMap((kind) =>
      fc.sample(requestsOf(operation, kind, options.hooks), {
        seed: seedOf(options.seed, operation.route, kind),
        numRuns: Math.max(1, Math.round((perOperation * kindWeights[kind]) / total)),
      }),
    );
  });
}

async function send(options: CheckOptions, request: GeneratedRequest): Promise<Answer> {
  const response = await fetch(`${options.baseUrl}${request.target}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body ? { body: request.body } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** What is wrong with one answer to one request: the document's word on it, and the status rules. */
function problemsOf(options: CheckOptions, request: GeneratedRequest, answer: Answer): string[] {
  const problems = answerProblems(request.operation, answer);
  if (answer.status >= 500 && !options.tolerated5xx?.(answer))
    problems.push(`a ${answer.status}: ${answer.bytes.toString("utf8").slice(0, 160)}`);
  if (request.mustRefuse && answer.status < 400)
    problems.push(`${answer.status} for what the document refuses (${request.mustRefuse})`);
  return problems;
}

/**
 * The generated client: every operation of the served document called with requests generated from
 * the document itself (valid, and broken in each way it can be), seeded, one at a time; each answer
 * checked against the document. Problems are gathered, not thrown, so one run shows them all.
 */
export async function checkAgainstDocument(options: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const requests = generateRequests(operationsOf(options.document), options);
  const counts = new Map<string, Map<number, number>>();
  const problems = new Map<string, Problem>();
  for (const request of requests) {
    const { route } = request.operation;
    let answer: Answer;
    try {
      answer = await send(options, request);
    } catch (error) {
      answer = { status: 0, contentType: "", bytes: Buffer.from(String(error)) };
    }
    options.onAnswer?.(request, answer);
    const byStatus = counts.get(route) ?? new Map<number, number>();
    byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    counts.set(route, byStatus);
    const found =
      answer.status === 0
        ? [`no answer: ${answer.bytes.toString("utf8")}`]
        : problemsOf(options, request, answer);
    for (const problem of found) {
      const key = `${route} ${answer.status} ${problem}`;
      const known = problems.get(key);
      if (known) known.times += 1;
      else
        problems.set(key, {
          route,
          status: answer.status,
          problem,
          example: `${request.method} ${request.target.slice(0, 200)} (${request.how}) ${request.body?.toString("utf8").slice(0, 200) ?? ""}`,
          times: 1,
        });
    }
  }
  return {
    seed: options.seed,
    sent: requests.length,
    counts,
    problems: [...problems.values()],
    ms: performance.now() - started,
  };
}

/** The counts as a table: a line per route, its statuses and how many answers each. */
export function formatCounts(report: CheckReport): string {
  const width = Math.max(...[...report.counts.keys()].map((route) => route.length));
  const lines = [...report.counts].map(([route, byStatus]) => {
    const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`);
    return `  ${route.padEnd(width)}  ${statuses.join("  ")}`;
  });
  return [
    `generated client: seed ${report.seed}, ${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s, ${report.problems.length} problems`,
    ...lines,
  ].join("\n");
}

/** Each problem once, with how often it came and the first request that showed it. */
export function formatProblems(report: CheckReport): string[] {
  return report.problems.map(
    (problem) => `${problem.route} → ${problem.problem} (×${problem.times}); e.g. ${problem.example}`,
  );
}
