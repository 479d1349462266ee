import { fileURLToPath } from "node:url";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { callGateway } from "@wallet/system-tests/harness/system";
import { describe, expect, it } from "vitest";
import { authedPlayer } from "../harness/authed-player.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";

const skewClock = ["--import", fileURLToPath(new URL("./clock/skew-clock.ts", import.meta.url))];
const deadlineMs = 1_500;
const skewMs = 45_000;

/** The `clockOffsetMs` an app logged at boot: how far it found its own clock from Redis's. */
function loggedOffset(logs: string[], ready: string): number {
  const line = logs.find((entry) => entry.includes(ready));
  return Number((JSON.parse(line ?? "{}") as { clockOffsetMs?: number }).clockOffsetMs);
}

// The gateway stamps each job with its deadline; the worker refuses a job past it. Both read time
// from Redis (their offset to it measured at boot and every 10 s), so skewed host clocks cannot make
// a worker run a stale job (gateway ahead) nor refuse every fresh one (gateway behind).
describe.each([
  ["ahead of", skewMs],
  ["behind", -skewMs],
])("the gateway's clock 45 s %s the workers' (90 s apart)", (_direction, gatewaySkew) => {
  const running = useFaultSystem({
    workers: 2,
    players: 8,
    deadlineMs,
    gateway: { env: { CLOCK_SKEW_MS: String(gatewaySkew) }, nodeArgs: skewClock },
    worker: { env: { CLOCK_SKEW_MS: String(-gatewaySkew) }, nodeArgs: skewClock },
  });
  const name = gatewaySkew > 0 ? "skew-gateway-ahead" : "skew-gateway-behind";

  it("each process measured its own offset from Redis time", () => {
    const { system } = running;
    const gateway = system.gateway?.logs ?? [];
    const worker = system.processes.find((proc) => proc.name === "worker")?.logs ?? [];
    expect(Math.abs(loggedOffset(gateway, "gateway listening") + gatewaySkew)).toBeLessThan(1_000);
    expect(Math.abs(loggedOffset(worker, "worker serving") - gatewaySkew)).toBeLessThan(1_000);
  });

  it("under load: no fresh callback is refused as late, and the invariants hold", async () => {
    const { system, sim, players } = running;
    const result = await underLoad(system, sim, players, name, async () => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
    });
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(50);
    // Nothing answered 503: the deadline did not fire on fresh callbacks.
    expect(Object.keys(result.sim.byStatus).filter((key) => key.endsWith(" 503"))).toEqual([]);
    const refused = system.processes
      .flatMap((proc) => proc.logs)
      .filter((line) => line.includes("past its deadline"));
    expect(refused).toEqual([]);
  });

  it("a job left queued past its deadline is still refused unrun, and the retry debits once", async () => {
    const { system } = running;
    const player = await authedPlayer(system, 1, 10_000n);
    const workers = system.processes.filter((proc) => proc.name === "worker" && proc.child.exitCode === null);
    await Promise.all(workers.map((worker) => system.stop(worker)));
    const front = { port: Number(new URL(system.walletUrl).port) };
    const bet = betBody(player, { amount: 4_000 });
    const late = await callGateway(front, "/withdraw", bet);
    expect(late.status).toBe(503);
    expect(late.json).toEqual({ code: 503, message: "the wallet did not answer in time; retry" });

    await system.startWorker({ CLOCK_SKEW_MS: String(-gatewaySkew) }, skewClock);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await balanceOf(system.ledger, player.playerId)).toBe(10_000n);
    expect(await countRows(system.ledger, "idempotency_records", bet.provider_tx_id as string)).toBe(0);

    const retry = await callGateway(front, "/withdraw", bet);
    expect(retry.status).toBe(200);
    expect(retry.json.data?.new_balance).toBe(6_000);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(6_000n);
  });
});
