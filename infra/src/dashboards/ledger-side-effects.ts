import { type DashboardSpec, per5mBy, rateBy } from "./grafana.ts";

export const ledgerSideEffects: DashboardSpec = {
  uid: "wallet-ledger",
  title: "Wallet · Ledger and side effects",
  description:
    "What the ledger did with each job, the transactional outbox of closed rounds and the exactly-once side effects it feeds.",
  rows: [
    {
      title: "Ledger",
      panels: [
        {
          title: "Ledger outcomes by op and result",
          description:
            "Every ledger job's outcome per second. `applied` and `replayed` are healthy; `rejected` is a 4xx (402 insufficient funds is normal); `conflict` a 409; `failed` a 5xx (should be 0); `expired` a job refused unrun because its callback deadline had passed (workers behind).",
          unit: "ops",
          width: 12,
          stack: true,
          queries: [rateBy("wallet_ledger_outcomes_total", ["op", "result"])],
        },
        {
          title: "Non-applied outcomes by action and status",
          description:
            "The outcomes that are not `applied`, by callback action and HTTP status, to tell a business refusal (402 on BET) from a problem (failed 5xx, expired, 409 conflicts).",
          unit: "ops",
          width: 12,
          queries: [
            rateBy(
              "wallet_ledger_outcomes_total",
              ["op", "action", "result", "status"],
              '{result!="applied"}',
            ),
          ],
        },
        {
          title: "Transaction retries by error",
          description:
            "Whole-transaction retries: deadlock (1213), lock_wait_timeout (1205), duplicate_key (1062, a concurrent twin of the same provider_tx_id), write_conflict (TiDB, Group Replication), schema_changed (TiDB), other. Healthy: near 0 (per-player partitions serialize a wallet's writes). A rise means contention from outside the partitions (operator adjustments, long queries) or MySQL trouble.",
          unit: "ops",
          width: 24,
          queries: [rateBy("wallet_ledger_transaction_retries_total", ["error"])],
        },
      ],
    },
    {
      title: "Outbox",
      panels: [
        {
          title: "Outbox pending rows",
          description:
            "CLOSE_ROUND side effects committed and not yet applied (max across workers: they read the same table). Healthy: near 0, draining within a second. A steady climb means the relay or the consumers stopped.",
          queries: [{ expr: "max(wallet_outbox_pending_rows)", legend: "pending" }],
        },
        {
          title: "Oldest pending side effect age",
          description:
            "Age of the oldest row not yet applied. Healthy: under a second. At 60 s the sweep republishes it; above 300 s for 5 minutes WalletOutboxStuck pages.",
          unit: "s",
          thresholds: {
            base: "green",
            steps: [
              [60, "orange"],
              [300, "red"],
            ],
          },
          queries: [{ expr: "max(wallet_outbox_oldest_pending_age_seconds)", legend: "oldest" }],
        },
        {
          title: "Outbox published and requeued",
          description:
            "Rows published to the side-effect queues, and rows the sweep handed back because their effect never arrived. Requeued should be 0; a steady rate means jobs are lost in Redis or consumers are failing. Unknown topic should be 0: rows of a topic this worker version does not know, claimed again at every sweep (WalletOutboxUnknownTopic).",
          unit: "ops",
          queries: [
            { expr: "sum(rate(wallet_outbox_published_total[$__rate_interval]))", legend: "published" },
            { expr: "sum(rate(wallet_outbox_requeued_total[$__rate_interval]))", legend: "requeued" },
            { expr: "sum(rate(wallet_outbox_pruned_total[$__rate_interval]))", legend: "pruned (retention)" },
            {
              expr: "sum(rate(wallet_outbox_unknown_topic_total[$__rate_interval]))",
              legend: "unknown topic",
            },
          ],
        },
        {
          title: "Reporting queue: oldest unread report",
          description:
            "How long the oldest round report has waited for the reporting team's consumer. Healthy: seconds. Over 15 minutes WalletReportingBacklog opens a ticket; past REPORTING_MAX_AGE_HOURS (or REPORTING_MAX_LENGTH reports) the oldest are dropped from Redis, kept in MySQL and restored with `pnpm side-effects republish`.",
          unit: "s",
          thresholds: {
            base: "green",
            steps: [
              [300, "orange"],
              [900, "red"],
            ],
          },
          queries: [{ expr: "max(wallet_reporting_oldest_unread_age_seconds)", legend: "oldest unread" }],
        },
        {
          title: "Reporting queue: unread reports and its bound",
          description:
            "Reports waiting for the reporting consumer, against the bound past which the oldest are dropped from Redis (never from MySQL). Dropped: reports removed by the bound, to republish.",
          unit: "short",
          queries: [
            { expr: "max(wallet_reporting_unread_jobs)", legend: "unread" },
            { expr: "max(wallet_reporting_max_unread_jobs)", legend: "bound" },
            { expr: "sum(increase(wallet_reporting_dropped_total[$__rate_interval]))", legend: "dropped" },
          ],
        },
      ],
    },
    {
      title: "Side effects and reconciliation",
      panels: [
        {
          title: "Side effects applied by topic",
          description:
            "Effects applied per second on loyalty, tournaments, reporting and rg. Each closed round yields one per topic, so the four lines should move together with the rate of closed rounds.",
          unit: "ops",
          queries: [rateBy("wallet_side_effects_total", ["topic"], '{outcome="applied"}')],
        },
        {
          title: "Duplicate side-effect deliveries by topic",
          description:
            "Deliveries deduplicated on (topic, event id): counted no-ops. A few after a worker crash or a sweep republish are the design working; a steady rate means the relay publishes twice.",
          unit: "ops",
          queries: [rateBy("wallet_side_effects_total", ["topic"], '{outcome="duplicate"}')],
        },
        {
          title: "Reconciliation mismatches (per 5 min)",
          description:
            "Closed rounds whose CLOSE_ROUND bets and wins disagree with what our ledger recorded. Healthy: always 0. Any value pages (WalletReconciliationMismatch): look the round up with GET /v1/rounds/:round_id.",
          thresholds: { base: "green", steps: [[1, "red"]] },
          queries: [per5mBy("wallet_reconciliation_mismatches_total", [])],
        },
        {
          title: "Refused CLOSE_ROUNDs by reason (per 5 min)",
          description:
            "CLOSE_ROUNDs answered 400 and stored in refused_closes (the platform never resends them). Healthy: always 0. Any opens a ticket (WalletCloseRefused): GET /v1/refused-closes lists them, POST /v1/rounds/:round_id/close applies a corrected one.",
          thresholds: { base: "green", steps: [[1, "red"]] },
          queries: [per5mBy("wallet_close_refusals_total", ["reason"])],
        },
        {
          title: "Dead side effects by topic",
          description:
            "Side effects that failed SIDE_EFFECT_MAX_ATTEMPTS times on their own and are no longer retried (read from MySQL; max across workers). Healthy: always 0. Above 0 for a minute WalletSideEffectDead pages; GET /v1/rounds/:round_id shows the last error, `pnpm side-effects retry --dead` hands them back after the fix.",
          thresholds: { base: "green", steps: [[1, "red"]] },
          queries: [{ expr: "max by (topic) (wallet_side_effects_dead)", legend: "{{topic}}" }],
        },
      ],
    },
  ],
};
