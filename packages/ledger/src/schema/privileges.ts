/**
 * Who may do what to the ledger's tables: two database users, neither with SUPER or any global
 * privilege, in SQL a DBA on MySQL 8.4, Aurora MySQL, Cloud SQL, MariaDB or TiDB runs as is
 * (`pnpm db:grants` prints it; docs/databases.md).
 *
 * - The runtime user (gateway, worker, operator API and their command-line tools) gets only the
 *   statements the product sends each table. The journal is append-only by these grants: SELECT and
 *   INSERT, no UPDATE or DELETE. The integration tests run the product as this user, so a grant
 *   missing here fails them (error 1142), and `privileges.int.test.ts` shows an UPDATE refused.
 * - The migrator (`pnpm db:migrate`, MIGRATE_DATABASE_URL) owns the schema of its one database.
 */
export type TablePrivilege = "SELECT" | "INSERT" | "UPDATE" | "DELETE";

const append: TablePrivilege[] = ["SELECT", "INSERT"];
const write: TablePrivilege[] = ["SELECT", "INSERT", "UPDATE"];
const prune: TablePrivilege[] = ["SELECT", "INSERT", "UPDATE", "DELETE"];

/** Every table of the schema (a unit test holds this to `schema/index.ts`) and what the runtime may do. */
export const runtimePrivileges = {
  bets: write,
  // A large close's pieces: those of a refused close go with it after its retention, those of a
  // close that lost its round to another close at once.
  close_pieces: prune,
  free_bet_grants: write,
  game_sessions: write,
  idempotency_records: append,
  // Append-only: a correction is a new line, never an edit.
  journal_entries: append,
  loyalty_awards: write,
  loyalty_balances: write,
  // The audit trail and revoked tokens are deleted after their retention periods (the worker's
  // retention, `retention/prune-expired.ts`); nothing else deletes them.
  operator_actions: prune,
  operator_api_tokens: prune,
  // Published events are pruned after their retention.
  outbox: prune,
  players: write,
  // Resolved refusals are deleted after their retention period.
  refused_closes: prune,
  rg_daily: write,
  round_closes: write,
  round_reconciliations: write,
  round_reports: write,
  rounds: write,
  // A failure is deleted once its effect applied.
  side_effect_failures: prune,
  side_effect_receipts: append,
  tenants: write,
  tournament_scores: write,
  tournaments: write,
  user_tokens: write,
  wallets: write,
  // The batch's guard inserts a duplicate here to fail a batch that lost a wallet; nothing is kept.
  write_checks: ["INSERT"],
  // No `schema_migrations`: only the migrator reads it (`migrate.ts`); no app, tool or check does.
} satisfies Record<string, TablePrivilege[]>;

/** The migrator's privileges on its database (and on creating it): schema changes, the convergence's data. */
export const migratorPrivileges = [
  "SELECT",
  "INSERT",
  "UPDATE",
  "DELETE",
  "CREATE",
  "ALTER",
  "DROP",
  "INDEX",
  "REFERENCES",
] as const;

/**
 * Only for a database the earlier (drizzle) migrator made whose journal triggers are still there:
 * `0002_converge_legacy` drops them (`migrations/converge.ts`), which needs TRIGGER. A fresh install
 * never has them (its convergence finds nothing to do), nor does a database whose `schema_migrations`
 * lists `0002_converge_legacy`; the grant tables cannot say which databases still have them, so it is
 * printed on request (`pnpm db:grants --legacy-install`), and a migrator without it says so.
 */
export const legacyInstallPrivileges = ["TRIGGER"] as const;

/** A database account; `host` as MySQL writes it (`%` any). */
export interface Account {
  user: string;
  host: string;
  password: string;
}

const quoted = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
const account = (who: Account) => `${quoted(who.user)}@${quoted(who.host)}`;

const onDatabase = (database: string) => `\`${database.replaceAll("`", "``")}\``;

/**
 * The database as a database-level GRANT (`ON db.*`) names it. There `_` and `%` are wildcards (on
 * MySQL 8.4, deprecated; on MariaDB and TiDB), so `wallet_prod` would grant every database named
 * like it (`walletXprod`): each is escaped (`wallet\_prod`), the name alone granted. MySQL with
 * `partial_revokes` ON reads these names literally, backslash included by its source: `literal`
 * (`pnpm db:grants --partial-revokes`) prints the name as it is for such a server. A table-level
 * grant (`ON db.table`) never reads a pattern, on any of them: its name is never escaped.
 */
export function databasePattern(database: string, { literal = false } = {}): string {
  return onDatabase(literal ? database : database.replace(/[\\_%]/g, (wildcard) => `\\${wildcard}`));
}

export interface MigratorGrantOptions {
  /** Adds TRIGGER, for an install of the earlier migrator whose triggers are still there (`legacyInstallPrivileges`). */
  legacyInstall?: boolean;
  /** The server is MySQL with `partial_revokes` ON: the database name unescaped (`databasePattern`). */
  partialRevokes?: boolean;
}

/** The migrator's user and its grants on the database: run before the first `pnpm db:migrate`. */
export function migratorGrants(
  database: string,
  migrator: Account,
  options: MigratorGrantOptions = {},
): string[] {
  const privileges = [...migratorPrivileges, ...(options.legacyInstall ? legacyInstallPrivileges : [])];
  const on = databasePattern(database, { literal: options.partialRevokes });
  return [
    `CREATE USER IF NOT EXISTS ${account(migrator)} IDENTIFIED BY ${quoted(migrator.password)}`,
    `GRANT ${privileges.join(", ")} ON ${on}.* TO ${account(migrator)}`,
  ];
}

/**
 * Once, on an install whose migrator was granted before the name was escaped: that grant, on the name
 * as a pattern, stays beside the escaped one until revoked (REVOKE names the stored grant exactly, so
 * this leaves the escaped one be). Run after `migratorGrants`, so the migrator never loses its database;
 * on a server without that old grant it fails (1141): nothing to do. Undefined for a name without `_` or `%`.
 */
export function patternGrantRevoke(
  database: string,
  migrator: Pick<Account, "user" | "host">,
): string | undefined {
  if (!/[_%]/.test(database)) return undefined;
  return `REVOKE ALL PRIVILEGES ON ${onDatabase(database)}.* FROM ${account({ ...migrator, password: "" })}`;
}

/** The runtime user and its table grants: run after `pnpm db:migrate` (a table's grant needs the table). */
export function runtimeGrants(database: string, runtime: Account): string[] {
  return [
    `CREATE USER IF NOT EXISTS ${account(runtime)} IDENTIFIED BY ${quoted(runtime.password)}`,
    ...Object.entries(runtimePrivileges).map(
      ([table, privileges]) =>
        `GRANT ${privileges.join(", ")} ON ${onDatabase(database)}.\`${table}\` TO ${account(runtime)}`,
    ),
  ];
}

/**
 * Once, on an install whose runtime user was granted before: its SELECT on the migrations table, which
 * only the migrator reads. On a server without that grant it fails (1147): nothing to do.
 */
export function migrationsTableRevoke(database: string, runtime: Pick<Account, "user" | "host">): string {
  return `REVOKE SELECT ON ${onDatabase(database)}.\`schema_migrations\` FROM ${account({ ...runtime, password: "" })}`;
}
