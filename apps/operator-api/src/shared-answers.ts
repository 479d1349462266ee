import { type OperatorRoute, type RouteAnswer, readsBody } from "./route.ts";

/**
 * An answer given in front of a route's own handler, or by a check every handler makes: `reason`
 * says why for the routes it applies to (undefined: not this route).
 */
interface SharedAnswer {
  status: number;
  reason: (route: OperatorRoute) => string | undefined;
}

/**
 * Every status a route may answer besides those it lists itself: what the bearer check (bearer.ts),
 * the body parser and the error path (app.ts), the operator check every handler starts with
 * (operator.ts) and Node's HTTP parser (`answerClientErrorsAsJson`) answer. Listed once, so a new
 * route is documented with them without saying so; openapi.ts and the checks that read answers
 * against the document both take a route's answers from `documentedAnswers`.
 */
const sharedAnswers: SharedAnswer[] = [
  {
    status: 400,
    reason: (route) =>
      [
        readsBody(route)
          ? "operatorId (query or body) malformed or not configured, the two different, or none while several operators are configured; a body that is not a JSON object"
          : "?operatorId= malformed or not configured, or none while several operators are configured",
        "a path with a malformed %-escape, or a request Node's HTTP parser refuses",
      ].join("; "),
  },
  { status: 401, reason: () => "missing, wrong or revoked bearer token" },
  { status: 403, reason: (route) => (readsBody(route) ? "a read token may only GET" : undefined) },
  {
    status: 404,
    reason: () => "an operatorId other than the token's operator: the same answer whether it exists or not",
  },
  { status: 408, reason: () => "the request was not received in time" },
  // A route with a limit of its own (a manual close) documents its 413 itself, with that limit.
  {
    status: 413,
    reason: (route) => (readsBody(route) && !route.bodyLimitBytes ? "body above 64 KiB" : undefined),
  },
  {
    status: 415,
    reason: (route) =>
      readsBody(route)
        ? "a Content-Encoding other than gzip, deflate, br or identity, or a charset other than UTF-8"
        : undefined,
  },
  { status: 431, reason: () => "request headers too large" },
  {
    status: 503,
    reason: () => "MariaDB or Redis unavailable, or the database fenced (read-only); retry",
  },
];

/**
 * A route's answers as documented: its own, and the shared ones it gets. Where both name a status the
 * route's words come first, then the shared reason.
 */
export function documentedAnswers(route: OperatorRoute): Record<number, RouteAnswer | string> {
  const answers: Record<number, RouteAnswer | string> = { ...route.responses };
  for (const { status, reason } of sharedAnswers) {
    const shared = reason(route);
    if (shared === undefined) continue;
    const own = answers[status];
    if (own !== undefined && typeof own !== "string")
      throw new Error(`${route.method} ${route.path}: ${status} is a refusal, {code, message}`);
    answers[status] = own === undefined ? shared : `${own}; or ${shared}`;
  }
  return answers;
}
