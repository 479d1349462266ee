import { type DashboardSpec, per5mBy, quantiles, rateBy } from "./grafana.ts";

const processes = '{job=~"wallet-.*"}';

export const queuesWorkers: DashboardSpec = {
  uid: "wallet-queues",
  title: "Wallet · Queues and workers",
  description:
    "The per-player ledger partitions (BullMQ, global concurrency 1 each), the jobs run on them and the processes running them.",
  rows: [
    {
      title: "Ledger partitions",
      panels: [
        {
          title: "Queue depth by partition",
          description:
            "Ledger jobs waiting on each partition (every worker reports the same value: max). Healthy: 0 or 1. One partition climbing alone is a hot player or a stuck job on it; all climbing means the workers or MySQL are slow.",
          queries: [{ expr: "max by (partition) (wallet_ledger_queue_depth)", legend: "p{{partition}}" }],
        },
        {
          title: "Queue wait p50 / p95 / p99",
          description:
            "Time a ledger job waited on its partition before a worker started it (Redis clock). Healthy: milliseconds. Approaching the 2.5 s deadline means callbacks will be answered 503.",
          unit: "s",
          queries: quantiles("wallet_ledger_queue_wait_seconds", []),
        },
        {
          title: "Callbacks held in gateways",
          description:
            "Callbacks waiting in a gateway for their partition's running job; each gateway sends them together as the partition's next job when it is answered. Healthy: a few under load, 0 when idle. Close to the callbacks in flight means the ledger (workers or MySQL) is the bottleneck; it grows before queue depth does.",
          queries: [{ expr: "sum(wallet_callbacks_held)", legend: "held" }],
        },
        {
          title: "Queue wait p99 by partition",
          description:
            "p99 wait per partition. A single high line is a partition that stalled (its job's lock lapsed: about 3 s) or a busy player; everything high is a capacity problem.",
          unit: "s",
          queries: quantiles("wallet_ledger_queue_wait_seconds", ["partition"], { levels: [0.99] }),
        },
      ],
    },
    {
      title: "Jobs",
      panels: [
        {
          title: "Ledger jobs per second by op",
          description:
            "Ledger calls (callbacks and adjustments) answered per second by verb. Should track the callback rate; a gap between the two means calls are waiting or lost.",
          unit: "ops",
          stack: true,
          queries: [rateBy("wallet_ledger_job_duration_seconds_count", ["op"])],
        },
        {
          title: "Job duration p50 / p99 by op",
          description:
            "Per call, from its worker taking the job to the answer being published: the shared (group-committed) MySQL transaction of two round trips. Healthy: a few ms. Growth means MySQL is slow, lock waits or deadlock retries.",
          unit: "s",
          queries: quantiles("wallet_ledger_job_duration_seconds", ["op"], { levels: [0.5, 0.99] }),
        },
        {
          title: "Callbacks per ledger transaction p50 / p99",
          description:
            "How many calls each group-committed transaction carried. Healthy: 1 when idle, rising with load (a transaction's round trips are paid once for all of them). Stuck at 1 under load means one partition, or the worker, is the bottleneck.",
          queries: quantiles("wallet_ledger_batch_size", [], { levels: [0.5, 0.99] }),
        },
        {
          title: "Stalled jobs by queue (per 5 min)",
          description:
            "Jobs whose worker lost its lock (crash, event-loop stall over the 2 s lock) and were taken back. Healthy: 0; one burst per worker crash or kill. Repeated stalls mean a crash loop or a blocked event loop.",
          queries: [per5mBy("wallet_jobs_stalled_total", ["queue"])],
        },
        {
          title: "Failed jobs by queue (per 5 min)",
          description:
            "Jobs that threw. Healthy: 0. A failed ledger job was answered 503 (the platform retries); a failed side effect is retried by BullMQ, so steady failures there mean a bug or a dependency down.",
          queries: [per5mBy("wallet_jobs_failed_total", ["queue"])],
        },
      ],
    },
    {
      title: "Processes",
      panels: [
        {
          title: "Workers live",
          description:
            "Workers with a fresh heartbeat, as the gateway sees them. 0 means nothing serves the ledger: every money callback times out (503). A worker stops heartbeating when it cannot reach MySQL.",
          kind: "stat",
          width: 4,
          thresholds: { base: "red", steps: [[1, "green"]] },
          queries: [{ expr: "max(wallet_workers_live)" }],
        },
        {
          title: "Event-loop lag p99 by process",
          description:
            "p99 event-loop delay per process. Healthy: under 50 ms. Past 1 s a worker risks losing its 2 s job lock (stalled jobs) and a gateway answers late.",
          unit: "s",
          width: 10,
          thresholds: { base: "green", steps: [[1, "red"]] },
          queries: [{ expr: `nodejs_eventloop_lag_p99_seconds${processes}`, legend: "{{job}} {{instance}}" }],
        },
        {
          title: "CPU by process (cores)",
          description:
            "CPU seconds per second (1 = one core) per process. A Node process pinned near 1 is saturated: its event loop lags and its jobs slow down.",
          unit: "short",
          width: 10,
          queries: [
            {
              expr: `rate(process_cpu_seconds_total${processes}[$__rate_interval])`,
              legend: "{{job}} {{instance}}",
            },
          ],
        },
        {
          title: "Resident memory by process",
          description:
            "RSS per process. Healthy: flat after warm-up. Steady growth is a leak; the process will be OOM-killed and its jobs stall.",
          unit: "bytes",
          queries: [{ expr: `process_resident_memory_bytes${processes}`, legend: "{{job}} {{instance}}" }],
        },
        {
          title: "Heap used by process",
          description: "V8 heap in use per process. A sawtooth is normal GC; a rising floor is a leak.",
          unit: "bytes",
          queries: [{ expr: `nodejs_heap_size_used_bytes${processes}`, legend: "{{job}} {{instance}}" }],
        },
        {
          title: "Time in GC by process",
          description:
            "Share of wall time spent in garbage collection. Healthy: a few %. Above 10% the process is memory-starved and its event loop lags.",
          unit: "percentunit",
          queries: [
            {
              expr: `sum by (job, instance) (rate(nodejs_gc_duration_seconds_sum${processes}[$__rate_interval]))`,
              legend: "{{job}} {{instance}}",
            },
          ],
        },
      ],
    },
  ],
};
