/**
 * mysqld_exporter as the wallet runs it, one next to each database server (the primary, every replica,
 * every cluster node), scraped as job `mysql` (infra/prometheus/prometheus.yml): what
 * `rules/database-replication.yml` and the dependencies dashboard read. The same flags in
 * infra/docker-compose.yml, infra/k8s/database-monitoring and the observability suite, which runs
 * Debian's build (0.14) against a semi-synchronous MariaDB pair; compose and k8s pin prom/mysqld-exporter.
 */

/** Its default port, and the job every database server's exporter is scraped under. */
export const mysqldExporterPort = 9104;
export const mysqldExporterJob = "mysql";

/**
 * Only the three collectors the rules and panels read (SHOW GLOBAL STATUS, SHOW GLOBAL VARIABLES,
 * SHOW SLAVE/REPLICA STATUS); the other default ones read information_schema tables that need the
 * PROCESS privilege, which would also show the exporter every session's SQL. Flags shared by 0.14 and
 * later versions.
 */
export const mysqldExporterCollectorFlags = [
  "--collect.global_status",
  "--collect.global_variables",
  "--collect.slave_status",
  "--no-collect.info_schema.innodb_cmp",
  "--no-collect.info_schema.innodb_cmpmem",
  "--no-collect.info_schema.query_response_time",
] as const;

/**
 * The one privilege those collectors need (docs/databases.md): SHOW SLAVE STATUS on MariaDB 10.5+,
 * SHOW REPLICA STATUS on MySQL. SHOW GLOBAL STATUS and VARIABLES need none. No SELECT: the exporter
 * never reads the ledger.
 */
export const mysqldExporterGrant = {
  mariadb: "REPLICA MONITOR",
  mysql: "REPLICATION CLIENT",
} as const;
