import { randomUUID } from "node:crypto";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { journalOf } from "@wallet/ledger/testing/ledger-reads";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorGet,
  scrapeOf,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * Issue 31, point 2: a round's first BET whose batch is slow (here held after its reads, as a lock
 * wait would hold it) while the round's CLOSE_ROUND runs on ANOTHER worker. The BET must end either
 * in the close's figures or as a late line with its own effects; before the fix it was debited in
 * neither (report betCount 0, a mismatch that never corrects, no loyalty).
 */
const HOLD_ROUND = "race-";
const system = useTestSystem({ deadlineMs: 15_000 });
const workers: AppProcess[] = [];
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  const hold = { NODE_ENV: "test", TEST_HOLD_BATCH_ROUND: HOLD_ROUND, TEST_HOLD_BATCH_MS: "1200" };
  workers.push(...(await Promise.all([system.startWorker(hold), system.startWorker(hold)])));
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

/** How many BETs and CLOSE_ROUNDs each worker has answered (its own metrics). */
async function answeredBy(): Promise<Array<{ bets: number; closes: number }>> {
  return Promise.all(
    workers.map(async (worker) => {
      const scrape = await scrapeOf(worker);
      return {
        bets: sampleSum(scrape, "wallet_ledger_outcomes_total", { action: "BET" }),
        closes: sampleSum(scrape, "wallet_ledger_outcomes_total", { action: "CLOSE_ROUND" }),
      };
    }),
  );
}

describe("a round's first BET racing its CLOSE_ROUND on two workers", () => {
  it("is always in the close's figures or a marked late line with its own effects, in every run that forces the window", async () => {
    const player = await authedPlayer(system, gateway, { balance: 1_000_000n });
    let forced = 0;
    let points = 0n;
    for (let attempt = 0; attempt < 20 && forced < 3; attempt++) {
      const round = `${HOLD_ROUND}${attempt}-${randomUUID().slice(0, 8)}`;
      const before = await answeredBy();
      // The BET's batch holds 1.2 s after its reads; the close arrives while it holds.
      const bet = callGateway(gateway, "/withdraw", betBody(player, { amount: 1_500, action_id: round }));
      await new Promise((resolve) => setTimeout(resolve, 250));
      const close = await callGateway(gateway, "/deposit", closeRoundBody(round, [1_500], [0]));
      expect(close.status).toBe(200);
      expect((await bet).status).toBe(200);
      const after = await answeredBy();
      const betWorker = after.findIndex((counts, index) => counts.bets > (before[index]?.bets ?? 0));
      const closeWorker = after.findIndex((counts, index) => counts.closes > (before[index]?.closes ?? 0));
      // Only a close taken by the other worker runs while the BET's batch holds; one taken by the
      // same worker waits behind it in that worker's group commit and proves nothing.
      if (betWorker !== closeWorker) forced += 1;

      const status = await sideEffectsApplied(api, round);
      const line = (await journalOf(system.ledger, player.playerId)).at(-1);
      expect(line).toMatchObject({ kind: "BET", amount: -1_500n });
      // Whichever way it ended, the round's report and reconciliation count the BET.
      expect(status.reconciliation).toMatchObject({ status: "matched", differences: [] });
      expect(status.report).toMatchObject({
        betCount: 1,
        reconciliation: "matched",
        revision: line?.anomaly === "after_close" ? 2 : 1,
      });
      expect(line?.anomaly === null || line?.anomaly === "after_close").toBe(true);
      // And its loyalty: one point per 1000 staked, whichever event brought it.
      points += 1n;
      const { json } = await operatorGet(
        api,
        `/v1/players/${encodeURIComponent(player.userId)}?operatorId=1`,
      );
      expect(BigInt(String(json.loyalty_points))).toBe(points);
    }
    expect(forced).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
