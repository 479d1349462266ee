import { type RecordedByProvider, recordedByProviderTx } from "@wallet/ledger/reads/acknowledgements";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { countRows, rgTotals } from "@wallet/ledger/testing/ledger-reads";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { closesBeforeTheirCallbacks, stakesByRound } from "@wallet/ledger/testing/round-reads";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import { verifyLedger } from "@wallet/ledger/verify";
import { eventually } from "@wallet/queue/testing/eventually";
import type { LaunchedPlayer, SeenAnswer } from "./platform-load.ts";

const moneyLabels = new Set(["BET", "FREE_BET", "WIN", "FREE_BET_WIN", "ROLL_BACK", "CLOSE_ROUND"]);
/** Debits are journalled negative. */
const debits = new Set(["BET"]);

export interface InvariantReport {
  /** Money callbacks the platform saw acknowledged with 200. */
  acknowledged: number;
  /** Every broken rule, one line each: must be empty. */
  problems: string[];
  roundCloses: number;
  /** How long the side effects took to drain after the load stopped. */
  drainMs: number;
}

/**
 * The suite's four rules, checked against the ledger read past every proxy:
 * 1. every callback the platform saw acknowledged is recorded, once, as the kind and amount it was;
 * 2. no money created or destroyed: every wallet equals its journal, each balance the platform was
 *    told equals the journal line's balance after, and its last one is the wallet's balance now;
 * 3. every side effect applied once: one receipt per consumer per round close, one report per round,
 *    loyalty points and responsible-gaming stakes recomputed from the journal (a double or a skip
 *    moves either);
 * 4. per-player order: no CLOSE_ROUND recorded before one of its round's callbacks.
 */
export async function checkInvariants(
  ledger: TestLedger,
  players: LaunchedPlayer[],
  answers: SeenAnswer[],
  drainTimeoutMs = 60_000,
): Promise<InvariantReport> {
  const problems: string[] = [];
  // Side effects first: loyalty below is only final once every round close was applied.
  const drainStarted = performance.now();
  const drained = await eventually(
    async () => ((await unappliedOutboxRows(ledger)) === 0 ? true : undefined),
    drainTimeoutMs,
    "side effects",
  ).catch(() => false);
  const drainMs = Math.round(performance.now() - drainStarted);
  if (!drained) problems.push(`side effects still pending ${drainMs} ms after the load`);
  const acknowledged = acknowledgedMoney(answers);

  for (const tenantId of new Set(players.map((player) => player.tenantId))) {
    const recorded = await recordedByProviderTx(ledger.db, tenantId);
    for (const answer of acknowledged.filter((seen) => seen.operatorId === tenantId)) {
      const problem = recordingProblem(answer, recorded.get(answer.providerTxId ?? ""));
      if (problem) problems.push(problem);
    }
  }

  const verified = await verifyLedger(ledger.db);
  for (const problem of verified.problems) problems.push(`wallet ${problem.walletId}: ${problem.problem}`);

  for (const player of players) {
    const summary = await playerSummary({ ctx: ledger.ctx, input: player });
    if (!summary) {
      problems.push(`player ${player.userId}: missing`);
      continue;
    }
    // The last balance the platform was told, unless a later callback of this player was never answered.
    const mine = answers.filter((answer) => answer.userId === player.userId && answer.balance !== null);
    const last = mine.at(-1);
    const unanswered = answers.some(
      (answer) => answer.userId === player.userId && (answer.status === 0 || answer.status >= 500),
    );
    if (last && !unanswered && BigInt(last.balance ?? 0) !== summary.balance)
      problems.push(
        `player ${player.userId}: platform last saw ${last.balance}, wallet holds ${summary.balance}`,
      );
    problems.push(...(await countersProblems(ledger, player, summary.loyalty_points)));
  }

  for (const roundId of await closesBeforeTheirCallbacks(ledger))
    problems.push(`round ${roundId}: closed before one of its callbacks`);

  const roundCloses = await countRows(ledger, "round_closes");
  const receipts = await countRows(ledger, "side_effect_receipts");
  const reports = await countRows(ledger, "round_reports");
  if (receipts !== 4 * roundCloses)
    problems.push(`${receipts} side-effect receipts for ${roundCloses} round closes (4 each)`);
  if (reports !== roundCloses) problems.push(`${reports} round reports for ${roundCloses} round closes`);
  return { acknowledged: acknowledged.length, problems, roundCloses, drainMs };
}

/**
 * One player's side-effect counters against the journal: responsible-gaming stakes and loyalty points
 * (`loyaltyPoints`, read from the player's summary) recomputed from the real money staked per closed
 * round; a double or a skipped effect moves either.
 */
export async function countersProblems(
  ledger: TestLedger,
  player: LaunchedPlayer,
  loyaltyPoints: bigint,
): Promise<string[]> {
  const problems: string[] = [];
  const stakes = await stakesByRound(ledger, player.playerId);
  const staked = stakes.reduce((sum, stake) => sum + stake, 0n);
  const rg = await rgTotals(ledger, player.playerId);
  if (rg.staked !== staked)
    problems.push(
      `player ${player.userId}: responsible-gaming counters hold ${rg.staked} staked, the journal ${staked}`,
    );
  const points = stakes.reduce((sum, stake) => sum + stake / 1000n, 0n);
  if (loyaltyPoints !== points)
    problems.push(`player ${player.userId}: ${loyaltyPoints} loyalty points, the journal earns ${points}`);
  return problems;
}

/** The money callbacks the platform saw answered 200: what rule 1 holds the ledger to. */
export function acknowledgedMoney(answers: SeenAnswer[]): SeenAnswer[] {
  return answers.filter((answer) => answer.status === 200 && moneyLabels.has(answer.label));
}

/**
 * Rule 1 for one acknowledged callback and what the ledger holds under its `provider_tx_id`: nothing
 * when it is recorded once as the kind and amount sent (or moved no money and so wrote nothing), else
 * the problem (`…: acknowledged but not recorded` when the ledger has no line at all).
 */
export function recordingProblem(
  answer: SeenAnswer,
  line: RecordedByProvider | undefined,
): string | undefined {
  const where = `${answer.label} ${answer.providerTxId}`;
  const amount = BigInt(answer.amount ?? 0);
  // A zero-amount settlement (a free bet's rollback) moves no money and writes no line.
  if (!line && amount === 0n && answer.label !== "CLOSE_ROUND" && answer.label !== "FREE_BET")
    return undefined;
  if (!line) return `${where}: acknowledged but not recorded`;
  if (line.times !== 1) return `${where}: recorded ${line.times} times`;
  if (line.kind !== answer.label) return `${where}: recorded as ${line.kind}`;
  if (line.amount !== (debits.has(answer.label) ? -amount : amount))
    return `${where}: recorded amount ${line.amount}, sent ${amount}`;
  if (line.balanceAfter !== null && answer.balance !== null && line.balanceAfter !== BigInt(answer.balance))
    return `${where}: answered balance ${answer.balance}, journal says ${line.balanceAfter}`;
  return undefined;
}
