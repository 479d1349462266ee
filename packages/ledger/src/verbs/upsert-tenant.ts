import type { LedgerContext } from "../context.ts";
import { tenants } from "../schema/tenants.ts";

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
