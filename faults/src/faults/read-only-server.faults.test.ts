import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows, journalOf } from "@wallet/ledger/testing/ledger-reads";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { callGateway, scrapeOf } from "@wallet/system-tests/harness/system";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import { authedPlayer } from "../harness/authed-player.ts";
import { operatorToken } from "../harness/fault-system.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { asRoot } from "../servers/mariadb-server.ts";

// Issue 39: the server the wallet runs on is set read-only (a failover tool fencing it) while the
// stack is warm and under load, the address unchanged: the pools' open connections keep reaching it.
const running = useFaultSystem({ workers: 1, players: 6 });
let api: AppProcess;
beforeAll(async () => {
  api = await running.system.startOperatorApi();
}, 60_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const setReadOnly = (on: boolean) =>
  asRoot(running.system.mariadb, (connection) =>
    connection.query(`SET GLOBAL read_only = ${on ? "ON" : "OFF"}`),
  );
/** Generous: the watcher checks every 250 ms; this only bounds a test that would otherwise hang. */
const REFUSAL_LIMIT_MS = 10_000;
/** How long every read and write must stay refused once they were (the issue saw reads served 3 s on). */
const HOLD_MS = 3_000;

describe("a server set read-only under load (issue 39)", () => {
  it("once refused, no read and no write is served until it is writable again (operator API read, /balance, BET: 503, nothing moved); then served again, balances right", async () => {
    const { system, sim, players } = running;
    const player = await authedPlayer(system, 1, 100_000n, { username: "faults-read-only" });
    const front = { port: Number(new URL(system.walletUrl).port) };
    const bet = betBody(player, { amount: 4_000, action_id: "read-only-round" });
    const readPlayer = async () => {
      const response = await fetch(`http://127.0.0.1:${api.port}/v1/players/${player.userId}?operatorId=1`, {
        headers: { authorization: `Bearer ${operatorToken}` },
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const readBalance = () => callGateway(front, "/balance", { user_id: player.userId, currency: "EUR" });
    /** One read of the operator API, one /balance and the BET, side by side: their statuses. */
    const probe = async () => {
      const [read, balance, write] = await Promise.all([
        readPlayer(),
        readBalance(),
        callGateway(front, "/withdraw", bet),
      ]);
      return { read: read.status, balance: balance.status, write: write.status };
    };
    const refused = { read: 503, balance: 503, write: 503 };
    expect((await readPlayer()).status).toBe(200);
    expect((await readBalance()).status).toBe(200);
    const journalBefore = (await journalOf(system.ledger, player.playerId)).length;

    let refusedAfterMs = 0;
    const probes: Array<Awaited<ReturnType<typeof probe>>> = [];
    const journalRows = { atRefusal: 0, afterHold: 0 };
    let fencedGauge = { api: 0, worker: 0 };
    const result = await underLoad(system, sim, players, "read-only-server", async () => {
      const started = performance.now();
      await setReadOnly(true);
      // Bounded poll until all three are refused together (no assertion on how fast: a bench's job).
      for (let last = await probe(); JSON.stringify(last) !== JSON.stringify(refused); last = await probe()) {
        if (performance.now() - started > REFUSAL_LIMIT_MS)
          throw new Error(
            `still served ${REFUSAL_LIMIT_MS} ms after SET GLOBAL read_only = ON: ${JSON.stringify(last)}`,
          );
        await pause(50);
      }
      refusedAfterMs = Math.round(performance.now() - started);
      journalRows.atRefusal = await countRows(system.ledger, "journal_entries");
      // From then on, every read and every write is refused, for as long as the server stays read-only.
      const holdUntil = performance.now() + HOLD_MS;
      while (performance.now() < holdUntil) {
        probes.push(await probe());
        await pause(100);
      }
      const worker = system.processes.find((proc) => proc.name === "worker" && proc.child.exitCode === null);
      if (!worker) throw new Error("no worker running");
      fencedGauge = {
        api: sampleSum(await scrapeOf(api), "wallet_db_fenced"),
        worker: sampleSum(await scrapeOf(worker), "wallet_db_fenced"),
      };
      journalRows.afterHold = await countRows(system.ledger, "journal_entries");
      await setReadOnly(false);
    });
    expect(probes.length).toBeGreaterThan(10);
    expect(probes.filter((seen) => JSON.stringify(seen) !== JSON.stringify(refused))).toEqual([]);
    expect(fencedGauge).toEqual({ api: 1, worker: 1 });
    // Nothing moved while refused: the BET's player untouched, no journal line anywhere, no stored answer.
    expect(journalRows.afterHold).toBe(journalRows.atRefusal);
    expect(await countRows(system.ledger, "idempotency_records", bet.provider_tx_id as string)).toBe(0);
    expect((await journalOf(system.ledger, player.playerId)).length).toBe(journalBefore);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(100_000n);
    // Each process said so once, and said when it served again.
    for (const proc of [api, ...system.processes.filter((each) => each.name === "worker")]) {
      expect(proc.logs.filter((line) => line.includes("database fenced")).length).toBeGreaterThan(0);
      expect(proc.logs.filter((line) => line.includes("database fence lifted")).length).toBeGreaterThan(0);
    }

    // Writable again: served again, and the BET resent is applied once, the balance right everywhere.
    expect(result.problems).toEqual([]);
    expect(result.sim.gaveUp).toBe(0);
    const resent = await callGateway(front, "/withdraw", bet);
    expect(resent.status).toBe(200);
    expect(resent.json.data?.new_balance).toBe(96_000);
    expect((await readBalance()).json.data?.amount).toBe(96_000);
    const read = await readPlayer();
    expect(read.status).toBe(200);
    expect(read.json.balance).toBe(96_000);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(96_000n);
    expect((await journalOf(system.ledger, player.playerId)).length).toBe(journalBefore + 1);
    console.log(
      `[faults] read-only-server: every read and write refused ${refusedAfterMs} ms after SET GLOBAL read_only = ON ` +
        `(poll every 50 ms, under load), and for the ${probes.length} probes of the next ${HOLD_MS} ms; ` +
        `served again ${result.recoveryMs} ms after read_only = OFF`,
    );
  });
});
