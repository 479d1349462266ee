import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf } from "@wallet/ledger/testing/ledger-reads";
import { holdWalletLock } from "@wallet/ledger/testing/locks";
import { describe, expect, it } from "vitest";
import { authedPlayer, callGateway, useRunningSystem } from "../harness/system.ts";

const running = useRunningSystem({ deadlineMs: 3_000 });

describe("a gateway told to stop (SIGTERM, as Kubernetes does)", () => {
  it("answers the callbacks it holds before it exits, and takes no new connection", async () => {
    const { system, gateway } = running;
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    // The bet waits on the wallet row lock, so it is in flight when the signal lands.
    const lock = await holdWalletLock(system.ledger, player.playerId);
    const bet = callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    gateway.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(callGateway(gateway, "/balance", { user_id: player.userId })).rejects.toThrow();
    await lock.release();
    const answered = await bet;
    expect([answered.status, answered.json.data?.new_balance]).toEqual([200, 9_000]);
    expect(await gateway.exited).toBe(0);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(9_000n);
  });
});
