import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import type { FaultSystem } from "../../harness/fault-system.ts";
import type { LaunchedPlayer } from "../../harness/platform-load.ts";

// "Nothing written": row counts of every table a callback writes, and every player's balance.

const writtenTables = ["journal_entries", "bets", "round_closes", "outbox", "idempotency_records"] as const;

export type LedgerSnapshot = Awaited<ReturnType<typeof ledgerSnapshot>>;

/** What a callback could have written: compare two of these to show it wrote nothing. */
export async function ledgerSnapshot(system: FaultSystem, players: LaunchedPlayer[]) {
  const rows = await Promise.all(
    writtenTables.map(async (table) => [table, await countRows(system.ledger, table)]),
  );
  const balances = await Promise.all(
    players.map(async (player) => [player.userId, String(await balanceOf(system.ledger, player.playerId))]),
  );
  return { rows: Object.fromEntries(rows), balances: Object.fromEntries(balances) };
}
