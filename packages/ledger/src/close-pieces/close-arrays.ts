import type { Db } from "../db.ts";
import { closePiecesText } from "./pieces.ts";

/** A stored close's arrays as their row holds them: the JSON text, or the key of their pieces. */
export interface StoredArrays {
  tenantId: number;
  stakes: string;
  cashOutCoefficients: string;
  piecesKey: string | null;
}

/** The close's two arrays as JSON text, wherever they are kept (its row, or `close_pieces`). */
export async function closeArraysText(
  db: Db,
  close: StoredArrays,
): Promise<{ stakes: string; cashOutCoefficients: string }> {
  if (close.piecesKey === null) return close;
  const key = { tenantId: close.tenantId, bodySha256: close.piecesKey };
  const [stakes, cashOutCoefficients] = await Promise.all([
    closePiecesText(db, key, "stakes"),
    closePiecesText(db, key, "coefficients"),
  ]);
  return { stakes, cashOutCoefficients };
}
