import { bigintOf, dateOf, type NamedRow, namedRow, numberOf, textOf } from "./binlog-columns.ts";
import type { BinlogTransaction } from "./decoded-rows.ts";

/** The tables whose rows after a point name what a restore removed (`reads/archived-after-point.ts`). */
export const archivedTables = [
  "players",
  "journal_entries",
  "bets",
  "round_closes",
  "rounds",
  "idempotency_records",
] as const;
export type ArchivedTable = (typeof archivedTables)[number];

/** A money line (journal_entries), a bet (bets) or a close (round_closes) as the archive wrote it. */
export interface ArchivedLine {
  tenantId: number;
  /** The player's row id in the lost history: resolved through `players`, never compared across servers. */
  playerId: number | null;
  /** The journal's kind, a bet's kind (BET, FREE_BET), or CLOSE_ROUND. */
  kind: string;
  /** Signed money moved: a journal line's amount, 0 for a bet row or a close. */
  amount: bigint;
  providerTxId: string | null;
  roundId: string | null;
}

export interface ArchivedRound {
  tenantId: number;
  roundId: string;
  createdAt: Date | null;
  closedAt: Date | null;
}

/** What the archive wrote after the point, table by table (inserts; a round's later close too). */
export interface ArchivedRows {
  players: Map<number, { tenantId: number; userId: string }>;
  journal: ArchivedLine[];
  bets: ArchivedLine[];
  closes: ArchivedLine[];
  rounds: Map<string, ArchivedRound>;
  /** Every stored answer (idempotency_records): what was answered, with its status. */
  answers: Array<{ tenantId: number; providerTxId: string; action: string; status: number }>;
  transactions: number;
}

/** A tenant's id for something (a round, a provider_tx_id), as one map key. */
export const tenantKey = (tenantId: number, id: string) => `${tenantId}\n${id}`;

/**
 * Collects the archive's rows of the ledger's database (`database`; a server may hold others), named
 * by `columns` (each table's columns in ordinal order, from the restored database's
 * information_schema: the binary log has positions only). Ids are read as the archive wrote them:
 * after a restore the new server hands out the same auto-increment ids again, to other rows.
 */
export class ArchivedRowsCollector {
  readonly rows: ArchivedRows = {
    players: new Map(),
    journal: [],
    bets: [],
    closes: [],
    rounds: new Map(),
    answers: [],
    transactions: 0,
  };

  constructor(
    private readonly database: string,
    private readonly columns: ReadonlyMap<string, readonly string[]>,
  ) {}

  add(transaction: BinlogTransaction): void {
    this.rows.transactions += 1;
    for (const change of transaction.changes) {
      const names = this.columns.get(change.table);
      if (change.database !== this.database || !names || !change.after) continue;
      const row = namedRow(change.after, names);
      if (change.op === "insert") this.insert(change.table as ArchivedTable, row);
      else if (change.op === "update" && change.table === "rounds") this.round(row);
    }
  }

  private insert(table: ArchivedTable, row: NamedRow): void {
    const tenantId = numberOf(row.tenant_id);
    const line = {
      tenantId,
      playerId: row.player_id === undefined || row.player_id === null ? null : numberOf(row.player_id),
      kind: textOf(row.kind) ?? "",
      amount: 0n,
      providerTxId: textOf(row.provider_tx_id),
      roundId: textOf(row.round_id),
    };
    switch (table) {
      case "players":
        this.rows.players.set(numberOf(row.id), { tenantId, userId: textOf(row.user_id) ?? "" });
        break;
      case "journal_entries":
        this.rows.journal.push({ ...line, amount: bigintOf(row.amount) });
        break;
      case "bets":
        this.rows.bets.push(line);
        break;
      case "round_closes":
        this.rows.closes.push({ ...line, kind: "CLOSE_ROUND" });
        break;
      case "rounds":
        this.round(row);
        break;
      case "idempotency_records":
        this.rows.answers.push({
          tenantId,
          providerTxId: line.providerTxId ?? "",
          action: textOf(row.action) ?? "",
          status: numberOf(row.status),
        });
        break;
    }
  }

  /** A round as the archive last wrote it: created, then closed. */
  private round(row: NamedRow): void {
    const round = { tenantId: numberOf(row.tenant_id), roundId: textOf(row.round_id) ?? "" };
    this.rows.rounds.set(tenantKey(round.tenantId, round.roundId), {
      ...round,
      createdAt: dateOf(row.created_at),
      closedAt: dateOf(row.closed_at),
    });
  }
}
