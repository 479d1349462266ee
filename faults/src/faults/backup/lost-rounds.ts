import type { SeenAnswer } from "../../harness/platform-load.ts";

/** A line of `pnpm rounds:at-risk --after-gtid … --archive …` as printed (JSON: money as numbers). */
export interface LostRoundLine {
  category: string;
  reason: string;
  operatorId: number;
  roundId: string;
  userIds: string[];
  createdAt: string | null;
  closedAt: string | null;
  lines: Array<{ providerTxId: string | null; kind: string; amount: number; userId: string | null }>;
}

export const ndjson = <T>(text: string): T[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

const key = (operatorId: number, id: string | null) => `${operatorId}\n${id ?? ""}`;
const share = (part: number, whole: number) =>
  whole === 0 ? 1 : Math.round((part / whole) * 10_000) / 10_000;

/**
 * Scores the rounds the archive listing named against the truth: the platform's callbacks answered 200
 * after the point that the restored ledger lacks (`missing`). Recall: of the rounds that lost such a
 * callback, how many it named; precision: of the rounds (and lines) it named, how many lost one. Each
 * named line that is such a callback must say what was sent: kind, signed amount, player, round.
 */
export function scoreLostRounds(listed: LostRoundLine[], missing: SeenAnswer[]) {
  const truth = new Set(missing.map((answer) => key(answer.operatorId, answer.roundId)));
  const named = new Set(listed.map((round) => key(round.operatorId, round.roundId)));
  const lines = listed.flatMap((round) => round.lines.map((line) => ({ ...line, round })));
  const byTx = new Map(missing.map((answer) => [key(answer.operatorId, answer.providerTxId), answer]));
  const wrong: string[] = [];
  const foundTx = new Set<string>();
  for (const line of lines) {
    const answer = byTx.get(key(line.round.operatorId, line.providerTxId));
    if (!answer) continue;
    foundTx.add(key(line.round.operatorId, line.providerTxId));
    const amount = answer.label === "BET" ? -(answer.amount ?? 0) : (answer.amount ?? 0);
    const said = `${line.kind} ${line.amount} ${line.round.roundId} ${line.userId ?? "-"}`;
    const sent = `${answer.label} ${amount} ${answer.roundId} ${answer.label === "CLOSE_ROUND" ? "-" : answer.userId}`;
    if (said !== sent) wrong.push(`${line.providerTxId}: listed ${said}, sent ${sent}`);
    if (answer.userId && !line.round.userIds.includes(answer.userId))
      wrong.push(`${line.providerTxId}: ${answer.userId} not among round ${line.round.roundId}'s userIds`);
  }
  const linesTrue = lines.filter((line) => byTx.has(key(line.round.operatorId, line.providerTxId))).length;
  return {
    rounds: {
      losing: truth.size,
      listed: named.size,
      recall: share([...truth].filter((round) => named.has(round)).length, truth.size),
      precision: share([...named].filter((round) => truth.has(round)).length, named.size),
      unlisted: [...truth].filter((round) => !named.has(round)),
      notLosing: [...named].filter((round) => !truth.has(round)),
    },
    lines: {
      lost: missing.length,
      listed: lines.length,
      recall: share(foundTx.size, missing.length),
      precision: share(linesTrue, lines.length),
    },
    wrong,
  };
}

/** Of the rounds that lost a callback, how many another listing (`rounds:at-risk --point`) names. */
export function recallOf(
  listing: Array<{ roundId: string; operatorId?: number; tenantId?: number }>,
  missing: SeenAnswer[],
) {
  const named = new Set(listing.map((round) => key(round.operatorId ?? round.tenantId ?? 0, round.roundId)));
  const truth = new Set(missing.map((answer) => key(answer.operatorId, answer.roundId)));
  const found = [...truth].filter((round) => named.has(round)).length;
  return { listed: named.size, found, recall: share(found, truth.size) };
}
