import { closeRoundTxIdMax } from "@wallet/contracts/close-round";
import { char, int, mediumtext, mysqlTable, uniqueIndex } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId } from "./columns.ts";

/**
 * One CLOSE_ROUND per (tenant, round) with its per-bet arrays as the platform sent them
 * (JSON text: stakes in millis, cashout coefficients), kept for reconciliation.
 */
export const roundCloses = mysqlTable(
  "round_closes",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    providerTxId: idString("provider_tx_id", closeRoundTxIdMax).notNull(),
    operatorTxId: idString("operator_tx_id", 40).notNull(),
    game: idString("game", 128).notNull(),
    currency: char("currency", { length: 3 }),
    betCount: int("bet_count").notNull(),
    stakes: mediumtext("stakes").notNull(),
    cashOutCoefficients: mediumtext("cash_out_coefficients").notNull(),
    /**
     * Set for a close past the ordinary body limit: its arrays are in `close_pieces` under this key
     * (the SHA-256 of its body), and the two columns above are empty. Null: they hold the arrays.
     */
    piecesKey: char("pieces_key", { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("round_closes_tenant_round").on(t.tenantId, t.roundId)],
);
