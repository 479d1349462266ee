import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorGet,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";
import { runDocBlockOk } from "./doc-blocks.ts";

// The runbook's WalletCloseRefused, its two blocks run as written: what the SRE reads of a refused
// close, then the manual close that recovers it, on a round id that must be %-encoded in a path.
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
const folder = mkdtempSync(join(tmpdir(), "refused-close-"));
beforeAll(async () => {
  await system.startWorker({ LOYALTY_POINTS_PER_1000: "1" });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("runbook: WalletCloseRefused, as written", () => {
  it("lists the refusal, saves its bytes, shows the round open, and the manual close applies it once", async () => {
    const round = "refused/round #1 ü";
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    expect(
      (await callGateway(gateway, "/withdraw", betBody(player, { amount: 3_000, action_id: round }))).status,
    ).toBe(200);
    const bad = closeRoundBody(round, [3_000, 1_000], [0]);
    expect((await callGateway(gateway, "/deposit", bad)).status).toBe(400);
    const env = {
      OPERATOR_API: `http://127.0.0.1:${api.port}`,
      TOKEN: "test-operator-token",
      OPERATOR_ID: "1",
      ROUND_ID: round,
    };

    const listed = (
      await runDocBlockOk("docs/runbook.md#refused-closes-check", {
        env: { ...env, REFUSAL_ID: "0" },
        cwd: folder,
      })
    ).stdout;
    const list = JSON.parse(listed.split("\n")[0] ?? "") as {
      refused_closes: Array<{ id: number; round_id: string; reason: string }>;
    };
    expect(list.refused_closes).toMatchObject([{ round_id: round, reason: "misaligned" }]);
    const refusalId = String(list.refused_closes[0]?.id);
    const checked = await runDocBlockOk("docs/runbook.md#refused-closes-check", {
      env: { ...env, REFUSAL_ID: refusalId },
      cwd: folder,
    });
    expect(readFileSync(join(folder, "close.json"), "utf8")).toBe(JSON.stringify(bad));
    expect(JSON.parse(checked.stdout.trim().split("\n").at(-1) ?? "")).toMatchObject({
      status: "open",
      side_effects: null,
    });

    const closed = await runDocBlockOk("docs/runbook.md#manual-close", {
      env: { ...env, COEFFICIENTS: "[0]", BETS: "[3000]", NOTE: "platform sent 2 bets for 1" },
    });
    expect(JSON.parse(closed.stdout)).toMatchObject({ replayed: false });
    expect(await countRows(system.ledger, "round_closes")).toBe(1);
    await sideEffectsApplied(api, round);
    const after = await operatorGet(api, `/v1/refused-closes?operatorId=1`);
    expect(
      (after.json.refused_closes as Array<{ resolved_at: string | null }>)[0]?.resolved_at,
    ).not.toBeNull();

    // The same block again: a round closes once; the answer says it was the first close's.
    const again = await runDocBlockOk("docs/runbook.md#manual-close", {
      env: { ...env, COEFFICIENTS: "[0]", BETS: "[3000]", NOTE: "again" },
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ replayed: true, differs_from_first: false });
    expect(await countRows(system.ledger, "round_closes")).toBe(1);
  });
});
