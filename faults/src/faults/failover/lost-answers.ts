import { recordedByProviderTx } from "@wallet/ledger/reads/acknowledgements";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import { acknowledgedMoney, recordingProblem } from "../../harness/invariants.ts";
import type { SeenAnswer } from "../../harness/platform-load.ts";

/**
 * The money callbacks the platform was answered 200 for that the ledger does not hold at all: what a
 * failover to a replica that was behind loses (rule 1's "acknowledged but not recorded").
 */
export async function lostAnswers(ledger: TestLedger, answers: SeenAnswer[]): Promise<SeenAnswer[]> {
  const acknowledged = acknowledgedMoney(answers);
  const lost: SeenAnswer[] = [];
  for (const tenantId of new Set(acknowledged.map((answer) => answer.operatorId))) {
    const recorded = await recordedByProviderTx(ledger.db, tenantId);
    for (const answer of acknowledged.filter((seen) => seen.operatorId === tenantId))
      if (!recorded.has(answer.providerTxId ?? "") && recordingProblem(answer, undefined)) lost.push(answer);
  }
  return lost;
}
