import { bets } from "../schema/bets.ts";
import type { TestLedger } from "./test-ledger.ts";

/**
 * Books a round of many bets for one player directly as bet rows (lost, no journal lines): what a
 * round of 100,000 BETs would leave for the close's reconciliation, without sending 100,000 BETs.
 * Balances and journals are untouched, so the ledger's invariants still hold.
 */
export async function seedRoundBets(
  ledger: TestLedger,
  round: { tenantId: number; playerId: number; roundId: string; stakes: number[]; currency?: string },
): Promise<void> {
  const rows = round.stakes.map((stake, index) => ({
    tenantId: round.tenantId,
    providerTxId: `${round.roundId}-seeded-${index}`,
    playerId: round.playerId,
    roundId: round.roundId,
    game: "crashGame",
    currency: round.currency ?? "EUR",
    kind: "BET" as const,
    amount: BigInt(stake),
    status: "open" as const,
  }));
  for (let start = 0; start < rows.length; start += 5_000)
    await ledger.db.insert(bets).values(rows.slice(start, start + 5_000));
}
