import { type DashboardSpec, quantiles, rateBy } from "./grafana.ts";

const callbacks = "wallet_callback_duration_seconds";
const picked = '{endpoint=~"$endpoint"}';

/** Budget remaining over 30 days: 1 = untouched, 0 = spent, below 0 = SLO missed. */
const budgetThresholds = {
  base: "red",
  steps: [
    [0, "orange"],
    [0.25, "green"],
  ] as [number, string][],
};
/** The two burn rates that page (docs/runbook.md: the callback SLO alerts). */
const burnThresholds = {
  base: "green",
  steps: [
    [6, "orange"],
    [14.4, "red"],
  ] as [number, string][],
};

export const serviceOverview: DashboardSpec = {
  uid: "wallet-overview",
  title: "Wallet · Service overview",
  description:
    "The platform's callbacks to the gateway: SLOs, rate, errors, latency, admission and idempotency.",
  variables: [
    {
      name: "endpoint",
      label: "Endpoint",
      query: `label_values(${callbacks}_count, endpoint)`,
    },
  ],
  rows: [
    {
      title: "SLOs (all endpoints)",
      panels: [
        {
          title: "Availability budget remaining (30 d)",
          description:
            "Share of the 30-day error budget (0.1% of callbacks may be 5xx) not yet spent. 100% is untouched; below 25% turns orange, below 0 the 99.9% SLO is missed. Falls when callbacks are answered 503/500.",
          kind: "stat",
          width: 6,
          unit: "percentunit",
          thresholds: budgetThresholds,
          queries: [
            {
              expr: `1 - ((sum(increase(${callbacks}_count{status=~"5.."}[30d])) or vector(0)) / sum(increase(${callbacks}_count[30d]))) / 0.001`,
            },
          ],
        },
        {
          title: "Latency budget remaining (30 d)",
          description:
            "Share of the 30-day latency budget (1% of callbacks may take over 250 ms) not yet spent. 100% is untouched; below 0 the 99% SLO is missed. Falls when the ledger or queues slow down.",
          kind: "stat",
          width: 6,
          unit: "percentunit",
          thresholds: budgetThresholds,
          queries: [
            {
              expr: `1 - (1 - sum(increase(${callbacks}_bucket{le="0.25"}[30d])) / sum(increase(${callbacks}_count[30d]))) / 0.01`,
            },
          ],
        },
        {
          title: "Availability burn rate",
          description:
            "How fast the 5xx budget is being spent: 1 spends it in exactly 30 days. Healthy is well below 1. The dashed lines are the paging thresholds: 14.4 (1h and 5m both above: fast burn) and 6 (6h and 30m: slow burn).",
          width: 6,
          thresholds: burnThresholds,
          min: 0,
          queries: burnRates("wallet:callback_error_ratio", 0.001),
        },
        {
          title: "Latency burn rate",
          description:
            "How fast the latency budget (callbacks over 250 ms) is being spent: 1 spends it in exactly 30 days. Healthy is well below 1. Dashed lines: the 14.4 and 6 paging thresholds.",
          width: 6,
          thresholds: burnThresholds,
          min: 0,
          queries: burnRates("wallet:callback_slow_ratio", 0.01),
        },
      ],
    },
    {
      title: "Callbacks: rate, errors, duration",
      panels: [
        {
          title: "Callback rate by endpoint and action",
          description:
            "Callbacks per second as the platform sends them. Follows game traffic; a sudden drop to 0 with the platform live means callbacks no longer reach us (network, DNS, gateway down).",
          unit: "reqps",
          stack: true,
          queries: [rateBy(`${callbacks}_count`, ["endpoint", "action"], picked)],
        },
        {
          title: "Non-2xx answers by endpoint and status",
          description:
            "Callbacks answered with anything but 2xx. 402 (insufficient funds) and 409 (conflict) are normal business answers; 401 is a signature problem; 400 a malformed body; 503 a deadline or shed; 500 a bug. Healthy: no 5xx.",
          unit: "reqps",
          stack: true,
          queries: [
            rateBy(`${callbacks}_count`, ["endpoint", "status"], `{endpoint=~"$endpoint", status!~"2.."}`),
          ],
        },
        {
          title: "5xx share by endpoint",
          description:
            "Share of each endpoint's callbacks answered 5xx. The SLO allows 0.1% overall; anything visible here is spending error budget. The platform retries 503s.",
          unit: "percentunit",
          min: 0,
          thresholds: { base: "green", steps: [[0.001, "red"]] },
          queries: [
            {
              expr: `(sum by (endpoint) (rate(${callbacks}_count{endpoint=~"$endpoint", status=~"5.."}[$__rate_interval])) or (0 * sum by (endpoint) (rate(${callbacks}_count${picked}[$__rate_interval])))) / sum by (endpoint) (rate(${callbacks}_count${picked}[$__rate_interval]))`,
              legend: "{{endpoint}}",
            },
          ],
        },
        {
          title: "Latency p50 / p95 / p99 by endpoint",
          description:
            "Callback duration from first byte to answer. Healthy p99 is a few ms to tens of ms; the SLO is 99% within 250 ms. A p99 at 2.5 s means callbacks hit the deadline (503).",
          unit: "s",
          width: 12,
          queries: quantiles(callbacks, ["endpoint"], { selector: picked }),
        },
        {
          title: "Latency p99 by action",
          description:
            "p99 duration per action (BET, WIN, ROLL_BACK, …). One slow action points at its ledger verb; all slow points at queues, MySQL or the workers.",
          unit: "s",
          width: 6,
          queries: quantiles(callbacks, ["action"], { selector: picked, levels: [0.99] }),
        },
        {
          title: "Answered within 250 ms by endpoint",
          description:
            "Share of callbacks answered within the 250 ms latency SLO. Healthy is above 99%; below it the latency budget burns.",
          unit: "percentunit",
          width: 6,
          max: 1,
          thresholds: { base: "red", steps: [[0.99, "green"]] },
          queries: [
            {
              expr: `sum by (endpoint) (rate(${callbacks}_bucket{endpoint=~"$endpoint", le="0.25"}[$__rate_interval])) / sum by (endpoint) (rate(${callbacks}_count${picked}[$__rate_interval]))`,
              legend: "{{endpoint}}",
            },
          ],
        },
      ],
    },
    {
      title: "Admission and deadlines",
      panels: [
        {
          title: "Callbacks in flight",
          description:
            "Callbacks admitted and waiting for their ledger answer, per gateway. Healthy: a handful. Climbing towards MAX_IN_FLIGHT (1024) means the workers are not keeping up; at the limit the gateway sheds.",
          queries: [{ expr: "sum by (instance) (wallet_callbacks_in_flight)", legend: "{{instance}}" }],
        },
        {
          title: "Shed callbacks (503 at admission)",
          description:
            "Callbacks refused 503 at once because MAX_IN_FLIGHT were already in flight. Healthy: 0. Any value means overload; the platform retries later.",
          unit: "reqps",
          queries: [rateBy("wallet_callback_shed_total", ["endpoint"], picked)],
        },
        {
          title: "Deadline timeouts (503)",
          description:
            "Callbacks answered 503 because no worker answered within the 2.5 s deadline. Healthy: 0. Rises with stalled partitions, a dead worker, slow MySQL or lock waits.",
          unit: "reqps",
          queries: [rateBy("wallet_callback_deadline_exceeded_total", ["endpoint"], picked)],
        },
      ],
    },
    {
      title: "Signatures and idempotency",
      panels: [
        {
          title: "Signature failures by reason",
          description:
            "Callbacks refused 401. Healthy: 0 or a trickle. `mismatch` across the board means a secret key differs from the platform's; `unknown_public_key` a tenant missing from TENANTS; `malformed_signature` a client bug.",
          unit: "reqps",
          width: 12,
          queries: [rateBy("wallet_signature_failures_total", ["reason"])],
        },
        {
          title: "Replays and conflicts",
          description:
            "Idempotent answers: `replay` is a platform retry of a callback we already answered (normal after 503s or timeouts); `conflict` is the same provider_tx_id with a different body, answered 409 (should be rare: a platform bug).",
          unit: "reqps",
          width: 12,
          queries: [rateBy("wallet_callback_replays_total", ["endpoint", "action", "kind"], picked)],
        },
      ],
    },
  ],
};

/** A ratio's burn rate over the four windows the alerts use: the ratio over the budget (1 = on budget). */
function burnRates(ratio: string, budget: number) {
  return ["5m", "30m", "1h", "6h"].map((window) => ({
    expr: `${ratio}:rate${window} / ${budget}`,
    legend: window,
  }));
}
