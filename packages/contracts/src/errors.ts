/**
 * The closed set of outcomes the apps answer with. Every transport maps them with one switch
 * (`codeToStatus`): the ledger throws them as `WalletError`s, the gateway and the operator API answer
 * their own refusals by code, never by a literal status. The envelope's `code` equals the HTTP
 * status, as the contract wants.
 */
export const errorCodes = [
  "BAD_REQUEST",
  /** A missing or unknown key, a missing or wrong signature or bearer token. */
  "UNAUTHENTICATED",
  /** A read-only operator token asked to write. */
  "FORBIDDEN",
  "INSUFFICIENT_FUNDS",
  "NOT_FOUND",
  "DUPLICATE_CONFLICT",
  "PAYLOAD_TOO_LARGE",
  /** A compressed body: callbacks are signed over the bytes as sent, and never inflated. */
  "UNSUPPORTED_ENCODING",
  /** The game platform answered us something we cannot use. */
  "BAD_GATEWAY",
  /** No answer within the call's deadline; the caller retries. */
  "DEADLINE_EXCEEDED",
  /** Too many requests in flight; the caller retries. */
  "OVERLOADED",
  /** MariaDB, Redis or the platform is unavailable; the caller retries. */
  "UNAVAILABLE",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export function codeToStatus(code: ErrorCode): number {
  switch (code) {
    case "BAD_REQUEST":
      return 400;
    case "UNAUTHENTICATED":
      return 401;
    case "INSUFFICIENT_FUNDS":
      return 402;
    case "FORBIDDEN":
      return 403;
    case "NOT_FOUND":
      return 404;
    case "DUPLICATE_CONFLICT":
      return 409;
    case "PAYLOAD_TOO_LARGE":
      return 413;
    case "UNSUPPORTED_ENCODING":
      return 415;
    case "BAD_GATEWAY":
      return 502;
    case "DEADLINE_EXCEEDED":
    case "OVERLOADED":
    case "UNAVAILABLE":
      return 503;
  }
}

/** The code of a refusal Express (or its body parser) raised with an HTTP status of its own. */
export function codeOfHttpStatus(status: number): ErrorCode {
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 415) return "UNSUPPORTED_ENCODING";
  return "BAD_REQUEST";
}

/** Transient outcomes: the platform retries 5xx, and a retry may succeed. */
export function isRetryable(code: ErrorCode): boolean {
  return codeToStatus(code) >= 500;
}

/** The one error type the ledger and the apps throw for an expected outcome. */
export class WalletError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = "WalletError";
    this.code = code;
    this.data = data;
  }

  get status(): number {
    return codeToStatus(this.code);
  }

  get retryable(): boolean {
    return isRetryable(this.code);
  }
}
