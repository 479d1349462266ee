import type { Db } from "@wallet/ledger/db";
import { recordedAnswers } from "@wallet/ledger/reads/acknowledgements";
import { verifyLedger } from "@wallet/ledger/verify";
import type { Acknowledged } from "./load/config.ts";

export interface Verification {
  walletsChecked: number;
  /** Wallets whose balance is not the sum of their journal (must be empty). */
  ledgerProblems: string[];
  acknowledged: number;
  /** 200s the load saw with no matching journal line or round close (must be empty). */
  missing: string[];
  passed: boolean;
}

/** After the load: journal = balances, and every 200 the load received is in the ledger as answered. */
export async function verifyAfterLoad(
  db: Db,
  tenantId: number,
  acknowledged: Acknowledged[],
): Promise<Verification> {
  const ledger = await verifyLedger(db);
  const recorded = await recordedAnswers(db, tenantId);
  const missing: string[] = [];
  for (const ack of acknowledged) {
    const line = recorded.get(ack.operatorTxId);
    const problem = !line
      ? "not recorded"
      : line.kind !== ack.action
        ? `recorded as ${line.kind}`
        : line.providerTxId !== ack.providerTxId
          ? `recorded for ${line.providerTxId}`
          : line.amount !== BigInt(ack.amount)
            ? `recorded amount ${line.amount}, answered ${ack.amount}`
            : undefined;
    if (problem) missing.push(`${ack.action} ${ack.providerTxId} (${ack.operatorTxId}): ${problem}`);
  }
  return {
    walletsChecked: ledger.wallets,
    ledgerProblems: ledger.problems.map((problem) => `wallet ${problem.walletId}: ${problem.problem}`),
    acknowledged: acknowledged.length,
    missing,
    passed: ledger.problems.length === 0 && missing.length === 0,
  };
}
