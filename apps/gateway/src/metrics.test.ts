import { describe, expect, it } from "vitest";
import { createGatewayMetrics } from "./metrics.ts";
import { unavailableSeries } from "./testing/unavailable-series.ts";

describe("the gateway's 503 series exist from the start (issue 34)", () => {
  it("a fresh gateway holds wallet_callback_duration_seconds at 0 for every endpoint and action a 503 can take", async () => {
    const metrics = createGatewayMetrics(2_500, async () => 0);
    // Written out, not derived from the code under test: an action added to the contract must be added here.
    const expected = [
      "auth unknown",
      "auth none",
      "withdraw unknown",
      "withdraw BET",
      "withdraw FREE_BET",
      "deposit unknown",
      "deposit WIN",
      "deposit FREE_BET_WIN",
      "deposit ROLL_BACK",
      "deposit CLOSE_ROUND",
      "balance unknown",
      "balance none",
    ];
    const series = await unavailableSeries(metrics.registry);
    expect(new Map(series)).toEqual(new Map(expected.map((labels) => [`${labels} 503`, 0])));
  });

  it("shows them in the scrape itself, each bucket, count and sum at 0, before any request", async () => {
    const text = await createGatewayMetrics(2_500, async () => 0).registry.metrics();
    expect(text).toContain(
      'wallet_callback_duration_seconds_count{endpoint="withdraw",action="BET",status="503"} 0',
    );
    expect(text).toContain(
      'wallet_callback_duration_seconds_bucket{le="+Inf",endpoint="auth",action="unknown",status="503"} 0',
    );
    expect(text).toContain(
      'wallet_callback_duration_seconds_sum{endpoint="balance",action="none",status="503"} 0',
    );
    // Only the 503s are made up front: no 200 series is claimed before a callback is answered.
    expect(text).not.toMatch(/wallet_callback_duration_seconds_count\{[^}]*status="200"/);
  });
});
