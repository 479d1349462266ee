import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON logs to stdout. Paths that could carry secrets or signatures are redacted at the source,
 * so no code path can log them by accident.
 */
export function createLogger(service: string, level = "info"): Logger {
  return pino({
    name: service,
    level,
    base: { service, pid: process.pid },
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
  });
}
