import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { describe, expect, it } from "vitest";
import { verifyAfterLoad } from "./verify.ts";

const ledger = useTestLedger([1]);

describe("verification after the load", () => {
  it("passes when every acknowledged answer is in the ledger and names each one that is not", async () => {
    await createPlayer({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: "v-1", username: "v", currency: "EUR", balance: 5_000n, maxbet: 1_000n },
    });
    const { recordedAnswers } = await import("@wallet/ledger/reads/acknowledgements");
    const [opening] = [...(await recordedAnswers(ledger.db, 1)).entries()];
    if (!opening) throw new Error("the opening balance should be in the journal");
    const [operatorTxId] = opening;

    const clean = await verifyAfterLoad(ledger.db, 1, []);
    expect(clean.passed).toBe(true);
    expect(clean.walletsChecked).toBeGreaterThanOrEqual(1);

    const bad = await verifyAfterLoad(ledger.db, 1, [
      { action: "BET", providerTxId: "never-sent", operatorTxId: "op-missing", amount: "-100" },
      // Recorded, but as the opening balance, not as this BET: a wrong answer is caught too.
      { action: "BET", providerTxId: "x", operatorTxId, amount: "-100" },
    ]);
    expect(bad.passed).toBe(false);
    expect(bad.missing).toEqual([
      "BET never-sent (op-missing): not recorded",
      `BET x (${operatorTxId}): recorded as OPENING`,
    ]);
  });
});
