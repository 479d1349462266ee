import { type DashboardSpec, quantiles, rateBy } from "./grafana.ts";

const upOrDown = { 0: "DOWN", 1: "UP" };
const redWhenDown = { base: "red", steps: [[1, "green"]] as [number, string][] };

export const dependencies: DashboardSpec = {
  uid: "wallet-dependencies",
  title: "Wallet · Dependencies",
  description:
    "MySQL and Redis as each service sees them, the database's replication and cluster (mysqld_exporter), the game platform's API, and the operator API.",
  rows: [
    {
      title: "MySQL and Redis",
      panels: [
        {
          title: "MySQL (worst service)",
          description:
            "UP when every service's last MySQL check succeeded; DOWN when at least one failed. DOWN stops the workers' heartbeats: money callbacks then time out (503).",
          kind: "stat",
          width: 4,
          mappings: upOrDown,
          thresholds: redWhenDown,
          queries: [{ expr: 'min(wallet_dependency_up{dependency="mysql"})' }],
        },
        {
          title: "Redis (worst service)",
          description:
            "UP when every service's last Redis check succeeded; DOWN when at least one failed. Redis carries the partition queues and replies: DOWN means no callback can be served.",
          kind: "stat",
          width: 4,
          mappings: upOrDown,
          thresholds: redWhenDown,
          queries: [{ expr: 'min(wallet_dependency_up{dependency="redis"})' }],
        },
        {
          title: "Dependency up by service",
          description:
            "Each service's view of each dependency (1 up, 0 down). One service at 0 while the others are at 1 is that service's network or connection pool, not the server.",
          width: 8,
          min: 0,
          max: 1,
          queries: [{ expr: "wallet_dependency_up", legend: "{{dependency}} from {{job}} {{instance}}" }],
        },
        {
          title: "Check latency p50 / p99 by dependency",
          description:
            "Round trip of the heartbeat checks (`SELECT 1`, Redis `TIME`). Healthy: about a millisecond on a local network. Tens of ms or more means an overloaded server or network; every callback pays it too.",
          unit: "s",
          width: 8,
          queries: quantiles("wallet_dependency_check_seconds", ["dependency"], { levels: [0.5, 0.99] }),
        },
      ],
    },
    {
      title: "Database replication and cluster (mysqld_exporter)",
      panels: [
        {
          title: "Semi-sync on the primary",
          description:
            "Semi-synchronous replication on the writable server (read_only OFF): ON while every commit waits for a replica's acknowledgement, so a callback answered 200 is on a replica too. OFF (async) means commits no longer wait, after one waited rpl_semi_sync_master_timeout, or semi-sync is not enabled at all: from then on a failover loses callbacks (WalletDbSemiSyncOff). No data on a server without semi-sync or replicas (compose's single MySQL).",
          kind: "stat",
          width: 4,
          mappings: { 0: "OFF (async)", 1: "ON" },
          thresholds: redWhenDown,
          queries: [
            {
              expr: "min((mysql_global_status_rpl_semi_sync_master_status or mysql_global_status_rpl_semi_sync_source_status) and on (job, instance) mysql_global_variables_read_only == 0)",
            },
          ],
        },
        {
          title: "Semi-sync replicas connected to the primary",
          description:
            "Replicas connected to the primary as semi-synchronous ones (Rpl_semi_sync_master_clients). At 0 nothing can acknowledge a commit: the next one waits the timeout and falls back to asynchronous.",
          width: 6,
          min: 0,
          queries: [
            {
              expr: "(mysql_global_status_rpl_semi_sync_master_clients or mysql_global_status_rpl_semi_sync_source_clients) and on (job, instance) mysql_global_variables_read_only == 0",
              legend: "{{instance}}",
            },
          ],
        },
        {
          title: "Primary commits acknowledged by a replica, and not",
          description:
            "Commits per second on the primary that a replica acknowledged before the answer (`acknowledged`), and those committed without (`not acknowledged`: after a fallback, or while a commit waited out the timeout). Healthy: every commit acknowledged; a `not acknowledged` line is callbacks a failover would lose.",
          unit: "ops",
          width: 6,
          queries: [
            {
              expr: "sum by (instance) (rate(mysql_global_status_rpl_semi_sync_master_yes_tx[$__rate_interval]) or rate(mysql_global_status_rpl_semi_sync_source_yes_tx[$__rate_interval])) and on (instance) mysql_global_variables_read_only == 0",
              legend: "acknowledged {{instance}}",
            },
            {
              expr: "sum by (instance) (rate(mysql_global_status_rpl_semi_sync_master_no_tx[$__rate_interval]) or rate(mysql_global_status_rpl_semi_sync_source_no_tx[$__rate_interval])) and on (instance) mysql_global_variables_read_only == 0",
              legend: "not acknowledged {{instance}}",
            },
          ],
        },
        {
          title: "Database servers up (exporter's view)",
          description:
            "1 when the mysqld_exporter next to each database server (primary, replicas, cluster nodes) could log in to it. 0 on a replica or cluster node: one copy fewer of every callback (WalletDbServerDown); on the primary the wallet is down too (WalletMySQLDown).",
          width: 8,
          min: 0,
          max: 1,
          queries: [{ expr: "mysql_up", legend: "{{instance}}" }],
        },
        {
          title: "Replication lag by replica",
          description:
            "Seconds_Behind_Master: how late each replica applies what it received. A failover must apply that backlog before the wallet can write again. Dashed lines: 30 s (ticket) and 120 s (page: longer than the platform resends a callback). It reads 0 when the replica receives nothing at all, and has no line while replication is stopped: see the threads panel and semi-sync.",
          unit: "s",
          width: 12,
          min: 0,
          thresholds: {
            base: "green",
            steps: [
              [30, "orange"],
              [120, "red"],
            ],
          },
          queries: [
            {
              expr: "mysql_slave_status_seconds_behind_master or mysql_slave_status_seconds_behind_source",
              legend: "{{instance}} {{connection_name}}{{channel_name}}",
            },
          ],
        },
        {
          title: "Replication threads running by replica",
          description:
            "1 while the replica's I/O thread (receiving the primary's binary log, and acknowledging semi-sync commits) and its SQL thread (applying it) run; 0 when stopped, failed or reconnecting. Either at 0 for 5 minutes: WalletDbReplicationStopped.",
          width: 12,
          min: 0,
          max: 1,
          queries: [
            {
              expr: "mysql_slave_status_slave_io_running or mysql_slave_status_replica_io_running",
              legend: "I/O {{instance}} {{connection_name}}{{channel_name}}",
            },
            {
              expr: "mysql_slave_status_slave_sql_running or mysql_slave_status_replica_sql_running",
              legend: "SQL {{instance}} {{connection_name}}{{channel_name}}",
            },
          ],
        },
        {
          title: "Galera cluster size by node",
          description:
            "Nodes in the cluster as each Galera node sees it, and how many nodes the job scrapes (the cluster's full size). A node's line below the scraped count: a node is missing (WalletDbClusterNodeDown). Empty unless the database is a Galera cluster.",
          width: 12,
          min: 0,
          queries: [
            {
              expr: "mysql_global_status_wsrep_cluster_size and on (job, instance) mysql_global_variables_wsrep_on == 1",
              legend: "{{instance}}",
            },
            {
              expr: "count by (job) (up and on (job) (mysql_global_variables_wsrep_on == 1))",
              legend: "nodes scraped ({{job}})",
            },
          ],
        },
        {
          title: "Galera nodes ready and in the primary component",
          description:
            "Per Galera node: `ready` (wsrep_ready: it accepts queries) and `primary` (wsrep_cluster_status Primary: it is on the side of the cluster that holds quorum). Either at 0 and the node refuses the wallet's queries (WalletDbClusterNotReady). Empty unless the database is a Galera cluster.",
          width: 12,
          min: 0,
          max: 1,
          queries: [
            {
              expr: "mysql_global_status_wsrep_ready and on (job, instance) mysql_global_variables_wsrep_on == 1",
              legend: "ready {{instance}}",
            },
            {
              expr: "mysql_global_status_wsrep_cluster_status and on (job, instance) mysql_global_variables_wsrep_on == 1",
              legend: "primary {{instance}}",
            },
          ],
        },
      ],
    },
    {
      title: "Game platform (operator → platform)",
      panels: [
        {
          title: "Platform requests by call and status",
          description:
            "Our calls to the platform (catalog, launch) per second by HTTP status, or `timeout` / `network` when no answer came. Healthy: all 2xx.",
          unit: "reqps",
          stack: true,
          queries: [rateBy("wallet_platform_request_duration_seconds_count", ["call", "status"])],
        },
        {
          title: "Platform call latency p50 / p99",
          description:
            "Duration of our calls to the platform, over the last 5 minutes: calls are rare (a launch per game opened, a catalog refresh every TTL), so a shorter window would leave no line between them. Launch latency is what a player waits for when opening a game; a rise is on the platform's side or the network.",
          unit: "s",
          queries: quantiles("wallet_platform_request_duration_seconds", ["call"], {
            levels: [0.5, 0.99],
            window: "5m",
          }),
        },
        {
          title: "Game catalog lookups by result",
          description:
            "Catalog reads: `hit` (fresh cache) should dominate, a `miss` every TTL (10 min). `stale` means the platform is failing and an old copy is served; `error` means nothing could be served (the lobby shows no games).",
          unit: "ops",
          stack: true,
          queries: [rateBy("wallet_game_catalog_lookups_total", ["result"])],
        },
      ],
    },
    {
      title: "Operator API",
      panels: [
        {
          title: "Operator API requests by route",
          description:
            "Requests per second per route pattern and method. `unmatched` are 404s on unknown paths.",
          unit: "reqps",
          stack: true,
          queries: [rateBy("wallet_operator_api_request_duration_seconds_count", ["method", "route"])],
        },
        {
          title: "Operator API errors by route and status",
          description:
            "Non-2xx answers by route and status. 4xx are callers' mistakes (401 bad token, 404 unknown player, 400 invalid body, 409 duplicate); 502/503 are the platform failing a launch or catalog call; 500 is ours: check the operator API's logs for the request id.",
          unit: "reqps",
          queries: [
            rateBy(
              "wallet_operator_api_request_duration_seconds_count",
              ["route", "status"],
              '{status!~"2.."}',
            ),
          ],
        },
        {
          title: "Operator API latency p99 by route",
          description:
            "p99 per route over the last 5 minutes (operator calls are rare; a shorter window would leave no line between them). Launch includes the platform call; adjustments wait for their ledger partition (up to the 2.5 s deadline).",
          unit: "s",
          queries: quantiles("wallet_operator_api_request_duration_seconds", ["route"], {
            levels: [0.99],
            window: "5m",
          }),
        },
      ],
    },
  ],
};
