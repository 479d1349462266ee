import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * JSON logs to stdout (or `destination`, for tests). Paths that could carry secrets or signatures
 * are redacted at the source, and errors lose their statements' bound values (`serializeError`),
 * so no code path can log them by accident.
 */
export function createLogger(service: string, level = "info", destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service, pid: process.pid },
    serializers: { err: serializeError },
    redact: {
      paths: [
        "secretKey",
        "*.secretKey",
        "*.*.secretKey",
        "TENANTS",
        "headers['x-signature']",
        "req.headers['x-signature']",
        "headers.authorization",
        "req.headers.authorization",
      ],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

const redacted = "params: [redacted]";

/**
 * pino's error serializer, minus the values bound to a failed SQL statement. drizzle's query error
 * carries every one of them in its message and stack (`Failed query: …\nparams: a,b,c`) and in
 * `params`; mysql2's carries the statement with the values inlined in `sql`. Those values are user
 * tokens, session tokens and player ids: redaction paths cannot reach inside a message, so they are
 * cut here. The statement itself (`query`, with `?` placeholders) stays: it says what failed.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (!serialized || typeof serialized !== "object") return serialized;
  const fields = serialized as Record<string, unknown>;
  // pino appends the causes' messages and stacks to the error's own: look down the whole chain.
  const bound = boundValues(error);
  for (const key of ["message", "stack"]) {
    const text = fields[key];
    if (typeof text === "string")
      fields[key] = bound.reduce((cut, values) => cut.split(values).join(redacted), text);
  }
  delete fields.params;
  delete fields.sql;
  if (Array.isArray((error as { errors?: unknown }).errors))
    fields.aggregateErrors = (error as { errors: unknown[] }).errors.map(serializeError);
  return serialized;
}

/** `params: <values>` exactly as drizzle wrote it into each message of the error's cause chain. */
function boundValues(error: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === "object" && !seen.has(current); ) {
    seen.add(current);
    const params = (current as { params?: unknown }).params;
    if (Array.isArray(params) && params.length > 0) found.push(`params: ${params}`);
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}
