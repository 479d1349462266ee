import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/** What the database holds for an operator-API token: its hash (never the token). */
export async function storedOperatorTokenHash(
  ledger: TestLedger,
  publicId: string,
): Promise<string | undefined> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT token_hash FROM operator_api_tokens WHERE public_id = ${publicId}`,
  )) as unknown as Rows<{ token_hash: string }>;
  return rows[0]?.token_hash;
}

/** The session tokens stored for a player, as stored (their hashes, since migration 0010). */
export async function storedSessionTokens(ledger: TestLedger, playerId: number): Promise<string[]> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT session_token FROM game_sessions WHERE player_id = ${playerId}`,
  )) as unknown as Rows<{ session_token: string }>;
  return rows.map((row) => row.session_token);
}
