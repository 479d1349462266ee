import { randomUUID } from "node:crypto";
import { WalletError } from "@wallet/contracts/errors";
import { tokenHash } from "@wallet/contracts/hash";
import { newUserToken } from "@wallet/contracts/user-token";
import { eq, sql } from "drizzle-orm";
import { newOperatorTxId } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import { freeBetGrants } from "../schema/free-bet-grants.ts";
import { players } from "../schema/players.ts";
import { tenants } from "../schema/tenants.ts";
import { type TournamentRule, tournaments } from "../schema/tournaments.ts";
import { userTokens } from "../schema/user-tokens.ts";
import { wallets } from "../schema/wallets.ts";
import { withTransaction } from "../transaction.ts";
import { appendJournal, findPlayer } from "../wallet-ops.ts";

/** Registers (or renames) a tenant; its secret stays in configuration, never in the database. */
export async function upsertTenant({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { id: number; publicKey: string; name?: string };
}) {
  const name = input.name ?? `operator ${input.id}`;
  await ctx.db
    .insert(tenants)
    .values({ id: input.id, publicKey: input.publicKey, name })
    .onDuplicateKeyUpdate({ set: { publicKey: input.publicKey, name } });
}

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
          { id: wallet.insertId, playerId, currency: input.currency, balance: opening },
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

/** Mints the `user_token` the platform will present to `/auth` (what a launch hands out). */
export async function mintUserToken({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; ttlSeconds: number };
}) {
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const token = newUserToken(player.userId);
    await tx.insert(userTokens).values({
      token: tokenHash(token),
      tenantId: input.tenantId,
      playerId: player.id,
      expiresAt: sql`DATE_ADD(CURRENT_TIMESTAMP(3), INTERVAL ${input.ttlSeconds} SECOND)`,
    });
    const [row] = await tx
      .select({ expiresAt: userTokens.expiresAt })
      .from(userTokens)
      .where(eq(userTokens.token, tokenHash(token)));
    return { userToken: token, expiresAt: row?.expiresAt ?? new Date() };
  });
}

/** Grants `count` free bets, optionally for one game and until a date. */
export async function grantFreeBets({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; count: number; game?: string; expiresAt?: Date };
}) {
  if (!Number.isInteger(input.count) || input.count < 1)
    throw new WalletError("BAD_REQUEST", "count must be a positive integer");
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const [grant] = await tx.insert(freeBetGrants).values({
      tenantId: input.tenantId,
      playerId: player.id,
      game: input.game ?? null,
      granted: input.count,
      remaining: input.count,
      expiresAt: input.expiresAt ?? null,
    });
    return { grantId: grant.insertId };
  });
}

/** Opens a tournament on one game between two dates. */
export async function createTournament({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: {
    tenantId: number;
    game: string;
    name: string;
    rule?: TournamentRule;
    startsAt: Date;
    endsAt: Date;
  };
}) {
  if (input.endsAt <= input.startsAt) throw new WalletError("BAD_REQUEST", "ends_at must be after starts_at");
  const [created] = await ctx.db.insert(tournaments).values({
    tenantId: input.tenantId,
    game: input.game,
    name: input.name,
    rule: input.rule ?? "payout",
    startsAt: input.startsAt,
    endsAt: input.endsAt,
  });
  return { tournamentId: created.insertId };
}
