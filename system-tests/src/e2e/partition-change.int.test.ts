import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { closesBeforeTheirCallbacks } from "@wallet/ledger/testing/round-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { describe, expect, inject, it } from "vitest";
import { harnessPath } from "../harness/env.ts";
import { type AppProcess, authedPlayer, callGateway, eventually, useTestSystem } from "../harness/system.ts";

const run = promisify(execFile);
const workerDir = fileURLToPath(new URL("../../../apps/worker/", import.meta.url));
const system = useTestSystem({ partitions: 4 });

/** `pnpm partitions <args>` as an operator runs it, against this test's prefix. */
async function partitionsCli(...args: string[]): Promise<{ code: number; out: string }> {
  const env = {
    PATH: harnessPath,
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: system.prefix,
    LEDGER_PARTITIONS: "4",
  };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "src/cli/partitions.ts", ...args],
      {
        cwd: workerDir,
        env,
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

const readiness = async (gateway: AppProcess) => {
  const response = await fetch(`http://127.0.0.1:${gateway.port}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("changing the partition count (docs/scaling.md)", () => {
  it("is refused while anything runs or waits, then done by the procedure with every player's order kept", async () => {
    let worker = await system.startWorker();
    let gateway = await system.startGateway();
    const players = await Promise.all(
      [1, 2, 3, 4].map(() => authedPlayer(system, gateway, { balance: 100_000n })),
    );
    const bets = players.map((player) =>
      betBody(player, { amount: 1_000, action_id: `before-${player.userId}` }),
    );
    for (const bet of bets) expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200);

    // A process configured with another count does not start: two counts would split players.
    await expect(system.startGateway({ LEDGER_PARTITIONS: "8" })).rejects.toThrow(
      /LEDGER_PARTITIONS is 8 but this Redis prefix runs with 4 partitions/,
    );
    await expect(system.startWorker({ LEDGER_PARTITIONS: "8" })).rejects.toThrow(/runs with 4 partitions/);

    // Refused while a worker is live.
    const whileLive = await partitionsCli("set", "8");
    expect(whileLive.code).toBe(1);
    expect(whileLive.out).toContain("refused: 1 live worker(s)");

    // Refused while a job waits: the worker stops, a callback is queued and answered 503 at the deadline.
    await system.stop(worker);
    const stranded = settleBody(players[0] as never, bets[0] as never, "WIN", { amount: 500 });
    expect((await callGateway(gateway, "/deposit", stranded)).status).toBe(503);
    const whileQueued = await partitionsCli("set", "8");
    expect(whileQueued.code).toBe(1);
    expect(whileQueued.out).toMatch(/refused: 0 live worker\(s\) and 1 partition\(s\) with unfinished jobs/);

    // The procedure: gateways stopped (the platform retries meanwhile), workers drain, workers stopped.
    const oldGateway = gateway;
    worker = await system.startWorker();
    await eventually(
      async () => {
        const status = JSON.parse((await partitionsCli("status")).out) as { busy: unknown[] };
        return status.busy.length === 0 ? true : undefined;
      },
      15_000,
      "partitions drained",
    );
    await system.stop(worker);
    const changed = await partitionsCli("set", "8");
    expect(changed).toEqual({
      code: 0,
      out: expect.stringContaining(`${system.prefix} now runs with 8 partitions (was 4)`),
    });
    // A gateway left running with the old count drops out of its load balancer.
    expect(await readiness(oldGateway)).toMatchObject({
      status: 503,
      body: {
        status: "not ready",
        partitions: expect.stringContaining("LEDGER_PARTITIONS is 4 but this Redis prefix runs with 8"),
      },
    });
    await system.stop(oldGateway);

    worker = await system.startWorker({ LEDGER_PARTITIONS: "8" });
    gateway = await system.startGateway({ LEDGER_PARTITIONS: "8" });
    expect((await readiness(gateway)).status).toBe(200);
    // The stranded WIN was refused unrun (past its deadline); the platform's retry now lands once.
    expect((await callGateway(gateway, "/deposit", stranded)).json.data?.new_balance).toBe(99_500);
    for (const [index, player] of players.entries()) {
      const bet = bets[index] as Record<string, unknown>;
      if (index > 0)
        expect(
          (await callGateway(gateway, "/deposit", settleBody(player, bet, "WIN", { amount: 500 }))).status,
        ).toBe(200);
      const after = betBody(player, { amount: 2_000, action_id: `after-${player.userId}` });
      expect((await callGateway(gateway, "/withdraw", after)).json.data?.new_balance).toBe(97_500);
      expect(await balanceOf(system.ledger, player.playerId)).toBe(97_500n);
    }
    expect(await countRows(system.ledger, "journal_entries")).toBe(4 * 4);
    expect((await verifyLedger(system.ledger.db)).problems).toEqual([]);
    expect(await closesBeforeTheirCallbacks(system.ledger)).toEqual([]);
    // And the old count is now the one refused.
    await expect(system.startWorker({ LEDGER_PARTITIONS: "4" })).rejects.toThrow(
      /LEDGER_PARTITIONS is 4 but this Redis prefix runs with 8/,
    );
  }, 120_000);
});
