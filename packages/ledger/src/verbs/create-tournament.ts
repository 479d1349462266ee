import { WalletError } from "@wallet/contracts/errors";
import type { LedgerContext } from "../context.ts";
import { type TournamentRule, tournaments } from "../schema/tournaments.ts";

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
