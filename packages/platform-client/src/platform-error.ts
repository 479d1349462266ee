/** What went wrong talking to the platform, precisely enough for the operator API to answer well. */
export type PlatformErrorKind =
  | "bad_request" // 400: our request was wrong (e.g. operatorId)
  | "unauthorized" // 401: our public key is missing or not known to the platform
  | "not_found" // 404: operator (catalog) or game (launch) unknown to the platform
  | "demo_not_available" // refused locally: the game has no demo mode
  | "unavailable" // 5xx, timeout or connection error, after retries
  | "invalid_response"; // the platform answered something that is not the contract's shape

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PlatformError";
  }

  /** Transient: worth a retry, and a reason to serve a stale catalog. */
  get transient(): boolean {
    return this.kind === "unavailable" || this.kind === "invalid_response";
  }
}
