import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { describe, expect, it } from "vitest";
import { authedPlayer, callGateway, useTestSystem } from "../harness/system.ts";

// Deadline 600 ms; the gateway starts with no worker serving its partitions.
const system = useTestSystem({ deadlineMs: 600, env: { MAX_IN_FLIGHT: "2" } });

describe("deadlines, load shedding and readiness", () => {
  it("answers 503 at the deadline when no worker serves, and /readyz says not ready", async () => {
    const helperWorker = await system.startWorker();
    const gateway = await system.startGateway();
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    await system.stop(helperWorker);

    const ready = await fetch(`http://127.0.0.1:${gateway.port}/readyz`);
    // The stopped worker removed its heartbeat on the way out.
    expect([ready.status, ((await ready.json()) as { workers: number }).workers]).toEqual([503, 0]);

    const bet = betBody(player, { amount: 4_000 });
    const late = await callGateway(gateway, "/withdraw", bet);
    expect(late.status).toBe(503);
    expect(late.json).toEqual({ code: 503, message: "the wallet did not answer in time; retry" });
    expect(late.ms).toBeGreaterThanOrEqual(550);

    // The queued job is past its deadline when a worker comes: it is refused and moves nothing.
    await system.startWorker();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await balanceOf(system.ledger, player.playerId)).toBe(10_000n);
    expect(await countRows(system.ledger, "idempotency_records", bet.provider_tx_id as string)).toBe(0);

    // The platform's retry of the same bytes is then processed once.
    const retry = await callGateway(gateway, "/withdraw", bet);
    expect(retry.status).toBe(200);
    expect(retry.json.data?.new_balance).toBe(6_000);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(6_000n);
  });

  it("sheds callbacks beyond MAX_IN_FLIGHT with an immediate 503", async () => {
    const gateway = await system.startGateway({ REDIS_PREFIX: `${system.prefix}:nobody` });
    const body = { user_id: "anyone" };
    const slow = [callGateway(gateway, "/balance", body), callGateway(gateway, "/balance", body)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const shed = await callGateway(gateway, "/balance", body);
    expect(shed.status).toBe(503);
    expect(shed.json.message).toBe("gateway overloaded; retry");
    expect(shed.ms).toBeLessThan(300);
    const waited = await Promise.all(slow);
    expect(waited.map((answer) => answer.status)).toEqual([503, 503]);
    // Once they are answered, capacity is back.
    const again = callGateway(gateway, "/balance", body);
    expect((await again).json.message).toBe("the wallet did not answer in time; retry");
  });
});
