import {
  closeRoundEventId,
  lateEventId,
  roundReport,
  sideEffectTopics,
} from "@wallet/contracts/side-effects";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import {
  type JournalLine,
  refusedCloseRows,
  roundClosesWithReceipts,
  storedReports,
} from "@wallet/ledger/testing/campaign-reads";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import { countersProblems } from "../../harness/invariants.ts";
import type { LaunchedPlayer } from "../../harness/platform-load.ts";
import type { Operation } from "../history/operation.ts";

const everyTopic = [...sideEffectTopics].sort().join(",");

/**
 * Rule 3: every closed round has each of its four effects applied exactly once (a receipt per topic
 * for its close, and for each money line booked after it; no receipt for an event that is owed by
 * nothing), its report equal to the ledger's own figures for the round, loyalty and
 * responsible-gaming counters equal to what the journal earns; and every close the platform was
 * refused (400) stored, and resolved when the operator closed its round by hand.
 */
export async function effectProblems(
  ledger: TestLedger,
  lines: JournalLine[],
  history: Operation[],
  players: LaunchedPlayer[],
): Promise<string[]> {
  const problems: string[] = [];
  const { closes, receipts } = await roundClosesWithReceipts(ledger);
  const owed = new Set<string>();
  const closed = new Set(closes.map((close) => `${close.tenantId}:${close.roundId}`));
  for (const close of closes) owed.add(closeRoundEventId(close.tenantId, close.roundId));
  for (const line of lines)
    if (
      line.roundId !== null &&
      line.anomaly?.includes("after_close") &&
      closed.has(`${line.tenantId}:${line.roundId}`)
    )
      owed.add(lateEventId(line.tenantId, line.roundId, line.operatorTxId));
  for (const event of owed) {
    const topics = [...(receipts.get(event) ?? [])].sort().join(",");
    if (topics !== everyTopic)
      problems.push(`effects of ${event}: receipts for [${topics}], owed [${everyTopic}]`);
  }
  for (const event of receipts.keys())
    if (!owed.has(event)) problems.push(`effects of ${event}: applied, but no close or late line owes them`);

  const reports = await storedReports(ledger);
  for (const close of closes) {
    const key = `${close.tenantId}:${close.roundId}`;
    const text = reports.get(key);
    if (!text) {
      problems.push(`round ${key}: closed, no report`);
      continue;
    }
    const parsed = roundReport.safeParse(JSON.parse(text));
    if (!parsed.success) {
      problems.push(`round ${key}: its report does not fit the published schema`);
      continue;
    }
    const mine = lines.filter((line) => line.tenantId === close.tenantId && line.roundId === close.roundId);
    const sum = (kinds: string[]) =>
      mine.filter((line) => kinds.includes(line.kind)).reduce((total, line) => total + line.amount, 0n);
    const stake = -sum(["BET", "ROLL_BACK"]);
    const payout = sum(["WIN", "FREE_BET_WIN"]);
    const reported = parsed.data.byCurrency.reduce(
      (total, entry) => ({
        stake: total.stake + BigInt(entry.stakeSum),
        payout: total.payout + BigInt(entry.payoutSum),
      }),
      { stake: 0n, payout: 0n },
    );
    if (reported.stake !== stake || reported.payout !== payout)
      problems.push(
        `round ${key}: reported stake ${reported.stake} and payout ${reported.payout}, the journal ${stake} and ${payout}`,
      );
  }

  const refused = await refusedCloseRows(ledger);
  for (const op of history.filter((one) => one.kind === "CLOSE_ROUND" && one.status === 400)) {
    const row = refused.find((entry) => entry.tenantId === op.operatorId && entry.providerTxId === op.key);
    if (!row) {
      problems.push(`CLOSE_ROUND ${op.key}: refused (400), not stored`);
      continue;
    }
    const closedByHand = history.some(
      (one) =>
        one.kind === "manual-close" &&
        one.status === 200 &&
        one.operatorId === op.operatorId &&
        one.roundId === op.roundId,
    );
    if (closedByHand && !row.resolved)
      problems.push(`CLOSE_ROUND ${op.key}: closed by hand, its refusal not resolved`);
    if (closedByHand && !closed.has(`${op.operatorId}:${op.roundId}`))
      problems.push(`round ${op.operatorId}:${op.roundId}: closed by hand (200), not closed in the ledger`);
  }

  for (const player of players) {
    const summary = await playerSummary({ ctx: ledger.ctx, input: player });
    if (!summary) {
      problems.push(`player ${player.userId}: missing`);
      continue;
    }
    problems.push(...(await countersProblems(ledger, player, summary.loyalty_points)));
  }
  return problems;
}
