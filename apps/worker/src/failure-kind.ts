import {
  DATABASE_FENCED,
  DATABASE_SESSION,
  serverUnavailableErrnos,
  transactionConflictErrnos,
} from "@wallet/ledger/mysql-errors";

/**
 * Whether an error is the infrastructure failing (MariaDB or Redis down, restarting, out of
 * connections, a lock that will be free later) rather than the work itself. The first is retried as
 * is and never counts against a side effect; anything else may be a poison event, and is isolated
 * and counted (`side-effects.worker.ts`). Walks the error's causes (drizzle wraps mysql2's errors).
 */
export function isInfrastructureError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, errno, name, message } = current as Record<string, unknown>;
    if (typeof code === "string" && infrastructureCodes.has(code)) return true;
    if (
      typeof errno === "number" &&
      (transactionConflictErrnos.has(errno) || serverUnavailableErrnos.has(errno))
    )
      return true;
    if (name === "MaxRetriesPerRequestError") return true;
    if (typeof message === "string" && infrastructureMessage.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const infrastructureCodes = new Set([
  // Our own: refused unsent while the server is read-only, as its writes would be (`readOnlyErrnos`),
  // or on a connection whose session could not be set as the ledger needs (`session-gate.ts`).
  DATABASE_FENCED,
  DATABASE_SESSION,
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
]);
/** ioredis and mysql2 messages for a connection that is gone. */
const infrastructureMessage =
  /Connection is closed|Stream isn't writeable|Pool is closed|connect E[A-Z]+|Can't add new command when connection is in closed state/;
