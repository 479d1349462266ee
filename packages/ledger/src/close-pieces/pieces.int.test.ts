import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { roundStatus } from "../reads/round-status.ts";
import { pruneExpired } from "../retention/prune-expired.ts";
import { closePieces } from "../schema/close-pieces.ts";
import { refusedCloses } from "../schema/refused-closes.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { readReconciliationInputs } from "../side-effects/reconciliation-inputs.ts";
import { runCall } from "../testing/run-calls.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { refuseStoredClose } from "../verbs/refused-closes.ts";
import { closePieceBytes, dropUnusedClosePieces, readClosePieces, storeClosePieces } from "./pieces.ts";

const ledger = useTestLedger();
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function piecesOf(key: { tenantId: number; bodySha256: string }) {
  return ledger.db
    .select({ part: closePieces.part, seq: closePieces.seq, size: sql<number>`LENGTH(${closePieces.bytes})` })
    .from(closePieces)
    .where(and(eq(closePieces.tenantId, key.tenantId), eq(closePieces.bodySha256, key.bodySha256)))
    .orderBy(asc(closePieces.part), asc(closePieces.seq));
}

async function readBack(key: { tenantId: number; bodySha256: string }, part: "stakes" | "body") {
  const pieces: Buffer[] = [];
  for await (const piece of readClosePieces(ledger.ctx.db, key, part)) pieces.push(piece);
  return Buffer.concat(pieces);
}

describe("a large close's pieces", () => {
  it("are stored in rows of at most closePieceBytes whatever the chunks, read back byte for byte, and stored again unchanged", async () => {
    const key = { tenantId: 1, bodySha256: sha("pieces-1") };
    // Chunks of every size around a piece: 1 byte, 64 KiB written-back text, 3 pieces at once.
    const chunks = [
      Buffer.from([0xff]),
      "x".repeat(64 * 1024),
      Buffer.alloc(3 * closePieceBytes + 17, 0xc3),
      "[1,2,3]",
    ];
    const whole = Buffer.concat(
      chunks.map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk) : chunk)),
    );
    expect(await storeClosePieces(ledger.ctx, key, "body", chunks)).toBe(4);
    const rows = await piecesOf(key);
    expect(rows.map((row) => [row.part, row.seq, Number(row.size)])).toEqual([
      ["body", 0, closePieceBytes],
      ["body", 1, closePieceBytes],
      ["body", 2, closePieceBytes],
      ["body", 3, whole.length - 3 * closePieceBytes],
    ]);
    expect((await readBack(key, "body")).equals(whole)).toBe(true);
    // A resend (or a run taken back) writes the same rows: nothing doubles, nothing changes.
    expect(await storeClosePieces(ledger.ctx, key, "body", chunks)).toBe(4);
    expect(await piecesOf(key)).toEqual(rows);
    expect((await readBack(key, "body")).equals(whole)).toBe(true);
  });

  it("a stored close is closed like any other: its row names its pieces, its round and reconciliation read them back", async () => {
    const bodySha256 = sha("stored-close-body");
    const stakes = Array.from({ length: 100_000 }, (_, i) => 1_000 + i);
    const coefficients = stakes.map((_, i) => (i % 2 ? 1.5 : 0));
    const key = { tenantId: 1, bodySha256 };
    await storeClosePieces(ledger.ctx, key, "stakes", [JSON.stringify(stakes)]);
    await storeClosePieces(ledger.ctx, key, "coefficients", [JSON.stringify(coefficients)]);
    const storedClose = {
      roundId: "stored-1",
      providerTxId: "stored-1-1-close-round",
      game: "crashGame",
      betCount: stakes.length,
    };
    const answer = await runCall(ledger.ctx, {
      op: "deposit",
      tenantId: 1,
      body: { action: "CLOSE_ROUND", action_id: "stored-1" },
      bodySha256,
      storedClose,
    });
    expect(answer.status).toBe(200);
    const [row] = await ledger.db.select().from(roundCloses).where(eq(roundCloses.roundId, "stored-1"));
    expect(row).toMatchObject({
      piecesKey: bodySha256,
      stakes: "",
      cashOutCoefficients: "",
      betCount: 100_000,
    });
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: "stored-1" } });
    expect(status?.close).toEqual({
      provider_tx_id: "stored-1-1-close-round",
      bet_count: 100_000,
      stakes,
      cash_out_coefficients: coefficients,
    });
    const inputs = await readReconciliationInputs(ledger.ctx, [{ tenantId: 1, roundId: "stored-1" }]);
    const [read] = [...inputs.values()];
    expect(read?.stakes.length).toBe(100_000);
    expect(read?.stakes[99_999]).toBe(100_999n);
    expect(read?.coefficients.slice(0, 2)).toEqual([0, 1.5]);
    // The same close sent again is answered as first, its pieces kept; another close of the round
    // drops its own pieces, which no row names.
    expect(
      (await runCall(ledger.ctx, { op: "deposit", tenantId: 1, body: {}, bodySha256, storedClose })).body,
    ).toBe(answer.body);
    await dropUnusedClosePieces(ledger.ctx.db, key, "stored-1");
    expect((await piecesOf(key)).length).toBeGreaterThan(0);
    const other = { tenantId: 1, bodySha256: sha("another close of stored-1") };
    await storeClosePieces(ledger.ctx, other, "stakes", ["[1]"]);
    await dropUnusedClosePieces(ledger.ctx.db, other, "stored-1");
    expect(await piecesOf(other)).toEqual([]);
  });

  it("a refused one's bytes go with its row when retention prunes it, and stay while it is open", async () => {
    const refuse = async (name: string) => {
      const key = { tenantId: 1, bodySha256: sha(name) };
      const pieces = await storeClosePieces(ledger.ctx, key, "body", [
        Buffer.alloc(closePieceBytes + 1, 0xff),
      ]);
      await refuseStoredClose({
        ctx: ledger.ctx,
        input: {
          ...key,
          refusal: { reason: "malformed_body", message: "body is not valid JSON" },
          ids: { roundId: name },
          preview: "\ufffd".repeat(10),
          bodyPieces: pieces,
          bodyBytes: closePieceBytes + 1,
        },
      });
      return key;
    };
    const resolved = await refuse("refused-resolved");
    const open = await refuse("refused-open");
    await ledger.db.execute(
      sql`UPDATE refused_closes SET resolved_at = CURRENT_TIMESTAMP(3) - INTERVAL 100 DAY WHERE round_id = 'refused-resolved'`,
    );
    expect(await pruneExpired(ledger.ctx.db, "refused_closes", 90 * 86_400)).toEqual({
      deleted: 1,
      more: false,
    });
    expect(await piecesOf(resolved)).toEqual([]);
    expect((await piecesOf(open)).map((row) => row.seq)).toEqual([0, 1]);
    const rows = await ledger.db.select().from(refusedCloses);
    expect(rows.map((row) => [row.roundId, row.bodyPieces, row.bodyBytes])).toEqual([
      ["refused-open", 2, closePieceBytes + 1],
    ]);
  });
});
