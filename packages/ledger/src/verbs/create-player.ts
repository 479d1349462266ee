import { randomUUID } from "node:crypto";
import { WalletError } from "@wallet/contracts/errors";
import { newOperatorTxId } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import { players } from "../schema/players.ts";
import { wallets } from "../schema/wallets.ts";
import { appendJournal } from "../steps/append-journal.ts";
import { findPlayer } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

export interface NewPlayer {
  tenantId: number;
  userId?: string;
  username: string;
  currency: string;
  balance?: bigint;
  maxbet: bigint;
  minbet?: bigint;
  maxwin?: bigint;
}

/** Creates a player with one wallet; an opening balance is a journal entry like any other credit. */
export async function createPlayer({ ctx, input }: { ctx: LedgerContext; input: NewPlayer }) {
  const userId = input.userId ?? randomUUID();
  const opening = input.balance ?? 0n;
  if (opening < 0n) throw new WalletError("BAD_REQUEST", "balance must not be negative");
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const [created] = await tx.insert(players).values({
        tenantId: input.tenantId,
        userId,
        username: input.username,
        currency: input.currency,
        maxbet: input.maxbet,
        minbet: input.minbet ?? null,
        maxwin: input.maxwin ?? null,
      });
      const playerId = created.insertId;
      const [wallet] = await tx
        .insert(wallets)
        .values({ playerId, currency: input.currency, balance: opening });
      if (opening > 0n) {
        const player = await findPlayer(tx, input.tenantId, userId);
        await appendJournal(
          tx,
          player,
          { id: wallet.insertId, playerId, currency: input.currency, balance: opening, seq: 0 },
          { kind: "OPENING", amount: opening, balanceAfter: opening, operatorTxId: newOperatorTxId() },
        );
      }
      return { playerId, userId };
    });
  } catch (error) {
    if (mysqlErrno(error) === ER_DUP_ENTRY)
      throw new WalletError("DUPLICATE_CONFLICT", `user ${userId} already exists`);
    throw error;
  }
}
