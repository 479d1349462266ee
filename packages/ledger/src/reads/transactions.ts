import { and, desc, eq, lt, or } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { findPlayer } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

/**
 * A player's journal, newest first (by its wallet's `wallet_seq`: ids give no order), `limit` at a
 * time; `next_cursor` (`<wallet id>.<wallet seq>`) continues where a page ended.
 */
export async function playerTransactions({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; limit: number; cursor?: string };
}) {
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const after = cursorOf(input.cursor);
    const j = journalEntries;
    const rows = await tx
      .select()
      .from(j)
      .where(
        and(
          eq(j.playerId, player.id),
          after &&
            or(
              lt(j.walletId, after.walletId),
              and(eq(j.walletId, after.walletId), lt(j.walletSeq, after.seq)),
            ),
        ),
      )
      .orderBy(desc(j.walletId), desc(j.walletSeq))
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
      next_cursor: rows.length > input.limit && last ? `${last.walletId}.${last.walletSeq}` : null,
    };
  });
}

/** A page's end as `next_cursor` wrote it; anything else starts from the newest line. */
function cursorOf(cursor: string | undefined): { walletId: number; seq: number } | undefined {
  const match = cursor === undefined ? null : /^(\d{1,15})\.(\d{1,15})$/.exec(cursor);
  return match ? { walletId: Number(match[1]), seq: Number(match[2]) } : undefined;
}
