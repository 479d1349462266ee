import type { FaultSystem } from "../harness/fault-system.ts";
import { testTenants } from "../harness/fault-system.ts";
import { dbUser } from "../servers/mariadb-server.ts";
import type { SentSecrets } from "./recording-client.ts";

/** Lines `system`'s apps logged so far that contain `text`. */
export const logged = (system: FaultSystem, text: string) =>
  system.allLogs().filter((line) => line.includes(text));

/** Resolves once `text` has been logged more than `already` times. */
export async function loggedAgain(
  system: FaultSystem,
  text: string,
  already: number,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (logged(system, text).length <= already) {
    if (Date.now() > deadline) throw new Error(`"${text}" not logged within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Every secret no log line may hold, each with what it is: the tenants' secret keys, the database
 * passwords (the suite's admin and the apps' runtime user), and all `sent` carried (the ledger holds only tokens' hashes).
 */
export function secretsToFind(system: FaultSystem, sent: SentSecrets): Array<[string, string]> {
  return [
    ...testTenants.map((tenant): [string, string] => [
      `tenant ${tenant.operatorId}'s secret key`,
      tenant.secretKey,
    ]),
    ["the database password", dbUser.password],
    ["the apps' database password", new URL(system.appDatabaseUrl).password],
    ...[...sent.bearerTokens].map((token): [string, string] => ["a bearer token sent", token]),
    ...[...sent.signatures].map((signature): [string, string] => ["an X-Signature sent", signature]),
    ...[...sent.userTokens].map((token): [string, string] => ["a user token", token]),
    ...[...sent.sessionTokens].map((token): [string, string] => ["a session token sent", token]),
  ];
}

const credentialsUrl = /mysql:\/\/[^\s:@/]+:[^\s@/]+@/;

/** One entry per line that holds a secret (shown masked) or a mysql:// URL with credentials. */
export function leaksIn(lines: string[], secrets: Array<[string, string]>): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    const found = secrets.filter(([, secret]) => line.includes(secret));
    if (found.length > 0) {
      // Masked, from a little before the first secret: where in the line it sits says who logged it.
      const at = Math.min(...found.map(([, secret]) => line.indexOf(secret)));
      let masked = line.slice(Math.max(0, at - 200), at + 300);
      for (const [what, secret] of found) masked = masked.split(secret).join(`<${what}>`);
      leaks.push(`…${masked}…`);
    } else if (credentialsUrl.test(line)) leaks.push("a mysql:// URL with credentials");
  }
  return leaks;
}
