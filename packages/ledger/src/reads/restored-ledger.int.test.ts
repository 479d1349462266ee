import { describe, expect, it } from "vitest";
import { archivedTables, tenantKey } from "../binlog/archived-rows.ts";
import { databaseName as urlDatabaseName } from "../migrate.ts";
import { betBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { databaseName, roundsHeld, tableColumns } from "./restored-ledger.ts";

/**
 * The restored ledger's side of `pnpm rounds:at-risk --after-gtid … --archive …` (what the archive
 * after a restore point names and the restored ledger lacks; the archive's side is read by
 * `binlog/decoded-rows.test.ts` and the fault suite's restore drill), read as the runtime user.
 */
const ledger = useTestLedger();

describe("the restored ledger's reads", () => {
  it("its database's name and each archived table's columns in order: what decodes the archive's rows", async () => {
    expect(await databaseName(ledger.ctx.db)).toBe(urlDatabaseName(ledger.url));
    const columns = await tableColumns(ledger.ctx.db, archivedTables);
    expect([...columns.keys()].sort()).toEqual([...archivedTables].sort());
    expect(columns.get("rounds")).toEqual(["tenant_id", "round_id", "game", "closed_at", "created_at"]);
    expect(columns.get("players")?.slice(0, 3)).toEqual(["id", "tenant_id", "user_id"]);
  });

  it("the rounds it holds among those named, and who bet in them; a round it never saw is absent", async () => {
    const ann = await playerWithSession(ledger, { balance: 10_000n });
    const bob = await playerWithSession(ledger, { balance: 10_000n });
    for (const player of [ann, bob, ann])
      expect(
        (await sendWithdraw(ledger, betBody(player, { amount: 100, action_id: "held-round" }))).status,
      ).toBe(200);
    const held = await roundsHeld(ledger.ctx.db, [
      { tenantId: 1, value: "held-round" },
      { tenantId: 1, value: "never-played" },
    ]);
    expect([...held.rounds.keys()]).toEqual([tenantKey(1, "held-round")]);
    expect(held.rounds.get(tenantKey(1, "held-round"))).toMatchObject({ closedAt: null });
    expect(held.bettors.map((bet) => bet.playerId).sort()).toEqual([ann.playerId, bob.playerId].sort());
  });
});
