/**
 * The closed set of outcomes a callback can end in. Every transport maps them with one switch
 * (`codeToStatus`); the envelope's `code` equals the HTTP status, as the contract wants.
 */
export const errorCodes = [
  "BAD_REQUEST",
  "INVALID_SIGNATURE",
  "UNKNOWN_PUBLIC_KEY",
  "INSUFFICIENT_FUNDS",
  "NOT_FOUND",
  "DUPLICATE_CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "DEADLINE_EXCEEDED",
  "OVERLOADED",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export function codeToStatus(code: ErrorCode): number {
  switch (code) {
    case "BAD_REQUEST":
      return 400;
    case "INVALID_SIGNATURE":
    case "UNKNOWN_PUBLIC_KEY":
      return 401;
    case "INSUFFICIENT_FUNDS":
      return 402;
    case "NOT_FOUND":
      return 404;
    case "DUPLICATE_CONFLICT":
      return 409;
    case "PAYLOAD_TOO_LARGE":
      return 413;
    case "DEADLINE_EXCEEDED":
    case "OVERLOADED":
      return 503;
    case "INTERNAL":
      return 500;
  }
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
