import type { ActiveAlert, PrometheusServer } from "../servers/prometheus-server.ts";

/** One sighting of an alert by the poller: when, and in which state. */
export interface AlertSighting {
  at: number;
  alertname: string;
  labels: Record<string, string>;
  state: ActiveAlert["state"];
}

/**
 * Polls Prometheus's active alerts every second and keeps every sighting, so a test can ask what
 * was pending or firing during any window of the run, and how long an alert took to get there.
 */
export class AlertTimeline {
  readonly sightings: AlertSighting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> = Promise.resolve();
  /** The names active at the last poll. */
  private current: ActiveAlert[] = [];
  private lastPollAt = 0;

  constructor(private readonly prometheus: PrometheusServer) {}

  start(): void {
    this.timer = setInterval(() => {
      this.polling = this.poll();
    }, 1_000);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
  }

  private async poll(): Promise<void> {
    const at = Date.now() / 1000;
    const alerts = await this.prometheus.alerts().catch(() => undefined);
    if (!alerts) return;
    this.current = alerts;
    this.lastPollAt = at;
    for (const alert of alerts) {
      this.sightings.push({
        at,
        alertname: alert.labels.alertname,
        labels: alert.labels,
        state: alert.state,
      });
    }
  }

  /** The sightings between two instants (unix seconds). */
  during(start: number, end: number): AlertSighting[] {
    return this.sightings.filter((sighting) => sighting.at >= start && sighting.at <= end);
  }

  /** Resolves once every named alert has been seen in `state` (firing also counts as pending) since `since`. */
  async reach(names: string[], state: ActiveAlert["state"], since: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const missing = names.filter(
        (name) =>
          !this.sightings.some(
            (sighting) =>
              sighting.alertname === name &&
              sighting.at >= since &&
              (state === "pending" || sighting.state === "firing"),
          ),
      );
      if (missing.length === 0) return;
      if (Date.now() > deadline) {
        throw new Error(
          `not ${state} after ${timeoutMs} ms: ${missing.join(", ")} (active: ${this.describe()})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** Resolves once a poll made after this call finds none of `names` (all alerts when empty) pending or firing. */
  async resolved(names: string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const since = Date.now() / 1000;
    for (;;) {
      const active = this.current.filter(
        (alert) => names.length === 0 || names.includes(alert.labels.alertname),
      );
      if (this.lastPollAt > since && active.length === 0) return;
      if (Date.now() > deadline) throw new Error(`still active after ${timeoutMs} ms: ${this.describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** The first time each alert was seen pending and firing after `since`, in seconds from `since`, and the last time it was seen. */
  timings(
    since: number,
    until: number,
  ): Map<string, { pending?: number; firing?: number; lastSeen?: number }> {
    const result = new Map<string, { pending?: number; firing?: number; lastSeen?: number }>();
    for (const sighting of this.during(since, until)) {
      const entry = result.get(sighting.alertname) ?? {};
      const after = Math.round(sighting.at - since);
      entry.pending ??= after;
      if (sighting.state === "firing") entry.firing ??= after;
      entry.lastSeen = after;
      result.set(sighting.alertname, entry);
    }
    return result;
  }

  describe(): string {
    if (this.current.length === 0) return "none";
    return this.current.map((alert) => `${alert.labels.alertname}(${alert.state})`).join(", ");
  }
}
