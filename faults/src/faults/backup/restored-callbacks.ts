import type { Db } from "@wallet/ledger/db";
import { recordedByProviderTx } from "@wallet/ledger/reads/acknowledgements";
import { acknowledgedMoney, recordingProblem } from "../../harness/invariants.ts";
import type { SeenAnswer } from "../../harness/platform-load.ts";

/** What a restored ledger holds of the money callbacks the platform was answered 200 for. */
export interface RestoredCallbacks {
  /** Acknowledged before the restore point: each must be in the restored ledger once, as sent. */
  before: number;
  /** Rule 1 broken for one of those: must be empty. */
  problems: string[];
  /** Acknowledged after the point (the platform was answered later): each is there or not. */
  after: number;
  presentAfter: SeenAnswer[];
  /** What the operator reconciles with the platform: answered 200, then lost with the restore. */
  missingAfter: SeenAnswer[];
}

/**
 * Reads the restored ledger for every acknowledged money callback. `before` are the platform's answers
 * as it held them just before the restore point was read from the primary, `answers` all of them at
 * the end (the same list, grown: the simulator appends each final answer as it comes). A callback
 * answered after the point may still be there: its commit can precede the point by a moment.
 */
export async function restoredCallbacks(
  db: Db,
  before: SeenAnswer[],
  answers: SeenAnswer[],
): Promise<RestoredCallbacks> {
  const ackBefore = acknowledgedMoney(before);
  const ackAfter = acknowledgedMoney(answers.slice(before.length));
  const recorded = new Map<number, Awaited<ReturnType<typeof recordedByProviderTx>>>();
  for (const tenantId of new Set(answers.map((answer) => answer.operatorId)))
    recorded.set(tenantId, await recordedByProviderTx(db, tenantId));
  const lineOf = (answer: SeenAnswer) => recorded.get(answer.operatorId)?.get(answer.providerTxId ?? "");

  const problems = ackBefore.flatMap((answer) => recordingProblem(answer, lineOf(answer)) ?? []);
  const presentAfter: SeenAnswer[] = [];
  const missingAfter: SeenAnswer[] = [];
  for (const answer of ackAfter) {
    const line = lineOf(answer);
    if (line) {
      presentAfter.push(answer);
      // There, it must be as sent, as any other.
      const problem = recordingProblem(answer, line);
      if (problem) problems.push(`after the point: ${problem}`);
    } else if (recordingProblem(answer, undefined)) missingAfter.push(answer);
    // else: it moved no money and wrote nothing, there or not.
  }
  return { before: ackBefore.length, problems, after: ackAfter.length, presentAfter, missingAfter };
}

/** The lost callbacks by kind, with their amounts summed: what the runbook's repair is sized by. */
export function lostByKind(missing: SeenAnswer[]): Record<string, { count: number; amount: string }> {
  const kinds: Record<string, { count: number; amount: bigint }> = {};
  for (const answer of missing) {
    const kind = kinds[answer.label] ?? { count: 0, amount: 0n };
    kind.count += 1;
    kind.amount += BigInt(answer.amount ?? 0);
    kinds[answer.label] = kind;
  }
  return Object.fromEntries(
    Object.entries(kinds).map(([label, kind]) => [label, { count: kind.count, amount: String(kind.amount) }]),
  );
}
