import { createHash } from "node:crypto";
import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import mysql, { type Pool, type RowDataPacket } from "mysql2/promise";

/**
 * Whether a close is stored, read straight from the version's tables, which both versions compared
 * share: `round_closes` (its round closed), `refused_closes` (refused, stored with its body) and
 * `side_effect_receipts` (its four effects applied). The benchmark's own reads, as the reference
 * wallet's SQL is its own: the operator API's round read sends the whole close back (7 MiB for 620,000
 * bets), which would load the machine the measurement is about.
 */
export class StoredCloses {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = mysql.createPool({ uri: url, connectionLimit: 2 });
  }

  private async count(sql: string, values: Array<string | number>): Promise<number> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(sql, values);
    return Number(rows[0]?.n ?? 0);
  }

  /** Its round closed (expect `closed`), or its refusal stored (expect `refused`). */
  async isStored(expect: "closed" | "refused", tenantId: number, roundId: string, raw: Buffer) {
    if (expect === "refused") {
      const sha = createHash("sha256").update(raw).digest("hex");
      return (
        (await this.count(
          "SELECT COUNT(*) AS n FROM refused_closes WHERE tenant_id = ? AND body_sha256 = ?",
          [tenantId, sha],
        )) > 0
      );
    }
    return (
      (await this.count("SELECT COUNT(*) AS n FROM round_closes WHERE tenant_id = ? AND round_id = ?", [
        tenantId,
        roundId,
      ])) > 0
    );
  }

  async effectsApplied(tenantId: number, roundId: string): Promise<boolean> {
    const applied = await this.count("SELECT COUNT(*) AS n FROM side_effect_receipts WHERE event_id = ?", [
      closeRoundEventId(tenantId, roundId),
    ]);
    return applied >= sideEffectTopics.length;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
