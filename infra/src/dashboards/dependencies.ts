import { type DashboardSpec, quantiles, rateBy } from "./grafana.ts";

const upOrDown = { 0: "DOWN", 1: "UP" };
const redWhenDown = { base: "red", steps: [[1, "green"]] as [number, string][] };

export const dependencies: DashboardSpec = {
  uid: "wallet-dependencies",
  title: "Wallet · Dependencies",
  description: "MySQL and Redis as each service sees them, the game platform's API, and the operator API.",
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
