import { WalletError } from "@wallet/contracts/errors";
import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { operatorActions } from "../schema/operator-actions.ts";

/** Where a page ended: its last line's time and id, the order the trail is listed in. */
interface TrailPosition {
  createdAt: Date;
  id: number;
}

/**
 * The operator's audit trail, newest first (by `created_at`, then `id`), `limit` at a time; `before`
 * continues where a page ended. The cursor names both keys of that order (`<created_at in ms>.<id>`,
 * `next_before`): ids alone give no order (TiDB hands out AUTO_INCREMENT ids in batches per server,
 * and any server can write two lines in the same millisecond), so paging by id skipped or repeated
 * lines. A bare id (what `next_before` was before issue 42) is still taken: it continues after that
 * line, wherever the line sorts.
 */
export async function listOperatorActions(
  db: Db,
  input: { tenantId: number; limit: number; before?: string },
) {
  const after = input.before === undefined ? undefined : await positionOf(db, input.tenantId, input.before);
  const a = operatorActions;
  // The OR form, not `(created_at, id) < (?, ?)`: MariaDB uses no index for a row comparison other
  // than equality, and MySQL 8.4's manual advises the OR form for full use of one (their pages on
  // row-constructor optimization); TiDB takes both.
  const rows = await db
    .select()
    .from(a)
    .where(
      and(
        eq(a.tenantId, input.tenantId),
        after &&
          or(lt(a.createdAt, after.createdAt), and(eq(a.createdAt, after.createdAt), lt(a.id, after.id))),
      ),
    )
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    actions: page.map((row) => ({
      id: row.id,
      action: row.action,
      subject: row.subject,
      actor: row.actor,
      detail: JSON.parse(row.detail) as unknown,
      created_at: row.createdAt.toISOString(),
    })),
    next_before: rows.length > input.limit && last ? cursorOf(last) : null,
  };
}

const cursorOf = (line: TrailPosition) => `${line.createdAt.getTime()}.${line.id}`;

/** A page's end, from a cursor `next_before` wrote, or from a bare line id (the earlier cursor). */
async function positionOf(db: Db, tenantId: number, before: string): Promise<TrailPosition> {
  const cursor = /^(\d{1,15})\.(\d{1,15})$/.exec(before);
  if (cursor) return { createdAt: new Date(Number(cursor[1])), id: Number(cursor[2]) };
  const id = /^\d{1,15}$/.test(before) ? Number(before) : Number.NaN;
  const [line] = Number.isSafeInteger(id)
    ? await db
        .select({ createdAt: operatorActions.createdAt, id: operatorActions.id })
        .from(operatorActions)
        .where(and(eq(operatorActions.tenantId, tenantId), eq(operatorActions.id, id)))
    : [];
  if (!line)
    throw new WalletError(
      "BAD_REQUEST",
      "before: must be a next_before from a previous page (that line is gone: start from the first page)",
    );
  return line;
}
