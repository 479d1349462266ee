import type { SeenAnswer } from "../../harness/platform-load.ts";
import type { DrillLine } from "./drill.ts";

export interface DrillScore {
  /** Rounds with at least one acknowledged callback the new primary does not hold. */
  roundsLosing: number;
  listedLost: number;
  listedCheck: number;
  /** Of the rounds losing a line, the share listed at all (either file, either category). */
  recall: number;
  /** Of the rounds losing a line, the share listed as `lost`. */
  recallLost: number;
  /** Of the rounds listed as `lost`, the share that did lose a line (1 when none is listed). */
  precisionLost: number;
  /** Of the rounds listed as `check`, the share that did lose a line. */
  precisionCheck: number;
  /** Of the rounds losing a line that left a trace in the ledger, the share listed. */
  recallOfTraced: number;
  /** Rounds losing a line that no list names, with their lost lines: must be none. */
  unlisted: string[];
  /**
   * Rounds losing a line that left no trace in the ledger: played wholly between the point and the
   * failover. Before the acknowledgement log only their round report could name them, and none when
   * their close's effects were still in the old primary's outbox when it died. With when their lost
   * lines were acknowledged, and whether a list names them now.
   */
  traceless: Array<{ round: string; lines: string[]; answeredAt: number[]; listed: boolean }>;
  /** Rounds listed as `lost` that lost nothing. */
  falseLost: string[];
}

const key = (operatorId: number, roundId: string | null) => `${operatorId}:${roundId}`;

/**
 * The tools' lists scored against the platform's own acknowledgements: `lost` are the callbacks it
 * was answered 200 for that the ledger does not hold (`lostAnswers`). A round is one operator's.
 */
export async function scoreDrill(
  lost: SeenAnswer[],
  lines: DrillLine[],
  holdsTrace: (operatorId: number, roundId: string) => Promise<boolean>,
): Promise<DrillScore> {
  const losing = new Map<string, SeenAnswer[]>();
  for (const answer of lost) {
    const round = key(answer.operatorId, answer.roundId);
    losing.set(round, [...(losing.get(round) ?? []), answer]);
  }
  const inCategory = (category: DrillLine["category"]) =>
    new Set(
      lines.filter((line) => line.category === category).map((line) => key(line.operatorId, line.roundId)),
    );
  const listedLost = inCategory("lost");
  // A round both files name is counted once, by its stronger finding.
  const listedCheck = new Set([...inCategory("check")].filter((round) => !listedLost.has(round)));
  const listed = new Set([...listedLost, ...listedCheck]);
  const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
  const losingIn = (rounds: Set<string>) => [...rounds].filter((round) => losing.has(round)).length;
  const unlisted: string[] = [];
  const traceless: DrillScore["traceless"] = [];
  for (const [round, answers] of losing) {
    const [first] = answers;
    const what = answers.map((answer) => `${answer.label} ${answer.providerTxId}`);
    if (!listed.has(round)) unlisted.push(`${round}: ${what.join(", ")}`);
    if (first && !(await holdsTrace(first.operatorId, first.roundId ?? "")))
      traceless.push({
        round,
        lines: what,
        answeredAt: answers.map((answer) => answer.answeredAt),
        listed: listed.has(round),
      });
  }
  return {
    roundsLosing: losing.size,
    listedLost: listedLost.size,
    listedCheck: listedCheck.size,
    recall: share(losingIn(listed), losing.size),
    recallLost: share(losingIn(listedLost), losing.size),
    precisionLost: share(losingIn(listedLost), listedLost.size),
    precisionCheck: share(losingIn(listedCheck), listedCheck.size),
    recallOfTraced: share(
      losingIn(listed) - traceless.filter((round) => round.listed).length,
      losing.size - traceless.length,
    ),
    unlisted,
    traceless,
    falseLost: [...listedLost].filter((round) => !losing.has(round)),
  };
}

export interface RecoveryFigures {
  /** From the primary killed to the first callback answered 200 by the new primary. */
  rtoMs: number;
  /** Acknowledged callbacks lost. */
  rpoCallbacks: number;
  /** From the first lost callback's acknowledgement to the kill: how much acknowledged history went. */
  rpoMs: number;
  /** From the first lost acknowledgement to the last. */
  lostSpanMs: number;
}

/**
 * RTO and RPO as the platform saw them (`answeredAt`, this machine's clock). `movedAtMs`: when the
 * address moved to the new primary; a 200 after it is the new primary's (one arriving between the
 * kill and the move is the old primary's last, answered in flight).
 */
export function recoveryFigures(
  answers: SeenAnswer[],
  lost: SeenAnswer[],
  killedAtMs: number,
  movedAtMs: number,
): RecoveryFigures {
  const firstServed = Math.min(
    ...answers
      .filter((answer) => answer.status === 200 && answer.answeredAt >= movedAtMs)
      .map((a) => a.answeredAt),
  );
  const lostTimes = lost.map((answer) => answer.answeredAt);
  const firstLost = lostTimes.length > 0 ? Math.min(...lostTimes) : killedAtMs;
  return {
    rtoMs: Math.round(firstServed - killedAtMs),
    rpoCallbacks: lost.length,
    rpoMs: Math.max(0, Math.round(killedAtMs - firstLost)),
    lostSpanMs: lostTimes.length > 0 ? Math.round(Math.max(...lostTimes) - firstLost) : 0,
  };
}
