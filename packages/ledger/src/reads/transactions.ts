import { and, desc, eq, lt } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { findPlayer } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

/** A player's journal, newest first, `limit` at a time; `next_cursor` continues where a page ended. */
export async function playerTransactions({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; limit: number; cursor?: string };
}) {
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const rows = await tx
      .select()
      .from(journalEntries)
      .where(
        and(
          eq(journalEntries.playerId, player.id),
          input.cursor === undefined ? undefined : lt(journalEntries.id, Number(input.cursor)),
        ),
      )
      .orderBy(desc(journalEntries.id))
      .limit(input.limit + 1);
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        id: String(row.id),
        kind: row.kind,
        amount: row.amount,
        balance_after: row.balanceAfter,
        currency: row.currency,
        operator_tx_id: row.operatorTxId,
        provider_tx_id: row.providerTxId,
        round_id: row.roundId,
        game: row.game,
        created_at: row.createdAt.toISOString(),
      })),
      next_cursor: rows.length > input.limit && last ? String(last.id) : null,
    };
  });
}
