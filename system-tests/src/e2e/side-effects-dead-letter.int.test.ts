import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import {
  failedAttempts,
  failuresOf,
  receiptsOf,
  repairUnreadableClose,
  seedUnreadableClose,
  seedUnreadableOutboxRow,
} from "@wallet/ledger/testing/dead-letters";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { outboxRowState } from "@wallet/ledger/testing/outbox-reads";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { runDocBlockOk } from "../docs/doc-blocks.ts";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  eventually,
  operatorGet,
  scrapeOf,
  useTestSystem,
} from "../harness/system.ts";

/**
 * An effect that fails the same way every time is dead after SIDE_EFFECT_MAX_ATTEMPTS (here 3, a
 * sweep apart): visible, counted, no longer republished, and applied once by
 * `pnpm side-effects retry --dead` after a fix. Nothing else waits on it.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
let worker: AppProcess;
beforeAll(async () => {
  worker = await system.startWorker({
    OUTBOX_SWEEP_AGE_SECONDS: "1",
    OUTBOX_SWEEP_EVERY_MS: "200",
    SIDE_EFFECT_MAX_ATTEMPTS: "3",
  });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const roundStatus = async (roundId: string) =>
  (await operatorGet(api, `/v1/rounds/${roundId}?operatorId=1`)).json;
const effectsOf = async (roundId: string) =>
  (await roundStatus(roundId)).side_effects as Record<string, string>;
const every = (state: string) => ({ loyalty: state, tournaments: state, reporting: state, rg: state });
const metric = async (name: string, labels: Record<string, string> = {}) =>
  sampleSum(await scrapeOf(worker), name, labels);

/** The workers' database and Redis, as an SRE sets them before the runbook's commands. */
const cliEnv = () => ({
  DATABASE_URL: system.ledger.url,
  REDIS_URL: inject("redisUrl"),
  REDIS_PREFIX: system.prefix,
});

describe("a side effect that can never apply", () => {
  it("is dead after its attempts, strands nothing else, stops coming back, and a retry after the fix applies it once", async () => {
    // Two poisons and a healthy round, committed together so the relay may claim them in one batch.
    await seedUnreadableClose(system.ledger.db, 1, "poison-close");
    await seedUnreadableOutboxRow(system.ledger.db, 1, "poison-payload");
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 2_000, action_id: "healthy" }));
    expect((await callGateway(gateway, "/deposit", closeRoundBody("healthy", [2_000], [0]))).status).toBe(
      200,
    );

    await eventually(
      async () => ((await effectsOf("healthy")).rg === "applied" ? true : undefined),
      15_000,
      "healthy",
    );
    expect(await effectsOf("healthy")).toEqual(every("applied"));

    // Only reporting reads the close's arrays: the other three effects of that round land.
    const dead = await eventually(
      async () => {
        const status = await roundStatus("poison-close");
        return (status.side_effects as Record<string, string>).reporting === "dead" ? status : undefined;
      },
      20_000,
      "the unreadable close's reporting dead",
    );
    expect(dead.side_effects).toEqual({ ...every("applied"), reporting: "dead" });
    expect(dead.side_effect_failures).toEqual([
      expect.objectContaining({
        topic: "reporting",
        attempts: 3,
        last_error:
          "Error: the stored CLOSE_ROUND of close-round:1:poison-close cannot be read for reconciliation",
        dead_at: expect.any(String),
      }),
    ]);
    // The unreadable payload is dead at once, at its first attempt.
    // No close is stored for it: only its failure records know it.
    expect((await operatorGet(api, "/v1/rounds/poison-payload?operatorId=1")).status).toBe(404);
    const failures = await failuresOf(system.ledger.db, "poison-payload");
    expect(failures).toEqual(
      ["loyalty", "reporting", "rg", "tournaments"].map((topic) => ({ topic, attempts: 1, dead: true })),
    );

    // Counted and shown: the gauge by topic, the counter of failures; the backlog no longer counts them.
    await eventually(
      async () =>
        (await metric("wallet_side_effects_dead", { topic: "reporting" })) === 2 ? true : undefined,
      5_000,
      "gauge",
    );
    for (const topic of ["loyalty", "tournaments", "reporting", "rg"]) {
      const both = topic === "reporting" ? 2 : 1; // the payload's four, the close's reporting
      expect(await metric("wallet_side_effects_dead", { topic })).toBe(both);
      expect(await metric("wallet_side_effect_failures_total", { topic, outcome: "dead" })).toBe(both);
      const retried = topic === "reporting" ? 2 : 0; // the close's first two of three attempts
      expect(await metric("wallet_side_effect_failures_total", { topic, outcome: "retrying" })).toBe(retried);
    }
    expect(await metric("wallet_outbox_pending_rows")).toBe(0);

    // No endless loop: several sweeps later, not one more attempt.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await failedAttempts(system.ledger.db)).toBe(3 + 4 * 1);

    // The fix, then one command: applied once, the payload row still dead (not asked for).
    await repairUnreadableClose(system.ledger.db, 1, "poison-close");
    // As the runbook's WalletSideEffectDead says, its block run as written.
    const { stdout: out } = await runDocBlockOk("docs/runbook.md#retry-dead", {
      env: { ...cliEnv(), OPERATOR_ID: "1", ROUND_ID: "poison-close" },
    });
    expect(out).toMatch(/1 dead side effect\(s\) handed back to the workers/);
    await eventually(
      async () =>
        Object.values(await effectsOf("poison-close")).every((state) => state === "applied")
          ? true
          : undefined,
      15_000,
      "retried effects applied",
    );
    expect(await receiptsOf(system.ledger.db, "close-round:1:poison-close")).toBe(4);
    // Its outbox row, live again, is marked applied; the payload's row, not retried, stays dead
    // (markApplied leaves out the rows still dead, issue 39).
    const rowOf = (round: string) => outboxRowState(system.ledger, `close-round:1:${round}`);
    await eventually(
      async () => ((await rowOf("poison-close"))?.applied ? true : undefined),
      15_000,
      "row applied",
    );
    expect(await rowOf("poison-close")).toEqual({
      topic: "all",
      published: true,
      applied: true,
      dead: false,
    });
    expect(await rowOf("poison-payload")).toEqual({
      topic: "all",
      published: true,
      applied: false,
      dead: true,
    });
    // Reported from the repaired close: its one line, which no bet of ours matches.
    expect((await roundStatus("poison-close")).reconciliation).toEqual({
      status: "mismatch",
      revision: 1,
      anomalies: [],
      differences: [
        { kind: "platform_bet_not_found", index: 0, stake: 1_000, coefficient: 0, expectedPayout: 0 },
      ],
      summary: {
        platform_bet_not_found: { count: 1, stake: "1000", payout: "0" },
        operator_bet_not_in_close: { count: 0, stake: "0", payout: "0" },
      },
    });
    await eventually(
      async () =>
        (await metric("wallet_side_effects_dead", { topic: "reporting" })) === 1 ? true : undefined,
      5_000,
      "gauge after retry",
    );
    expect(await countRows(system.ledger, "round_reports")).toBe(2);
  }, 60_000);
});
