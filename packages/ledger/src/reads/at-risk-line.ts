import { stringifyJson } from "@wallet/contracts/json";

/**
 * `lost`: something shows that a callback the platform was answered 200 for is missing from the
 * ledger (repair it); `check`: nothing shows a loss, but the round was in play when the data ends
 * (compare it with the platform's records). With lossless replication every round is `check`.
 */
export type AtRiskCategory = "lost" | "check";

/**
 * One line of every list of rounds to reconcile after the ledger lost its newest commits
 * (`pnpm rounds:at-risk`, `pnpm side-effects lost-reports`, the restore's archive reader): one JSON
 * object a line, the same fields whichever tool found the round, so the lists are read, counted and
 * joined alike. `operatorId` is the name the operator API and the runbook use for the tenant.
 */
export interface AtRiskLine {
  category: AtRiskCategory;
  /** What found it: `mismatch`, `win_for_unknown_bet`, `open_at_point`, `report_without_close`, … */
  reason: string;
  operatorId: number;
  roundId: string;
  /** The round's players (`user_id`), every one known; null when nothing that survived names one. */
  userIds: string[] | null;
  /** Why `userIds` is null, and where to find them instead. */
  userIdsUnknown?: string;
  /** When the ledger saw the round begin (ISO 8601 UTC); null when it holds no row of it. */
  createdAt: string | null;
  /** When it closed: the ledger's close, or the one a round report names; null while open. */
  closedAt: string | null;
  /** What shows it, in words: each finding, the one that gave `reason` first. */
  evidence: string;
  /**
   * Its callbacks answered 200 that the ledger does not hold, from the acknowledgement log (present
   * only then): each the adjustment to make (`amount`, signed millis) or, for a CLOSE_ROUND, the close.
   */
  lostLines?: LostLine[];
}

/** One callback of a round the platform was answered 200 for and the ledger lost. */
export interface LostLine {
  providerTxId: string;
  action: string;
  userId: string | null;
  /** Signed millis as text: a BET's stake negative, a credit positive, 0 for FREE_BET and CLOSE_ROUND. */
  amount: string;
  /** When the platform was answered (ISO 8601 UTC, Redis's clock). */
  acknowledgedAt: string;
}

/** The line as printed: one JSON object, fields in the order above. */
export function formatAtRiskLine(line: AtRiskLine): string {
  const { userIdsUnknown, evidence, lostLines, ...rest } = line;
  const ordered = {
    category: rest.category,
    reason: rest.reason,
    operatorId: rest.operatorId,
    roundId: rest.roundId,
    userIds: rest.userIds,
    ...(rest.userIds === null ? { userIdsUnknown } : {}),
    createdAt: rest.createdAt,
    closedAt: rest.closedAt,
    evidence,
    ...(lostLines && lostLines.length > 0 ? { lostLines } : {}),
  };
  return stringifyJson(ordered);
}

/** `userIds` from what is known: the list, or null and why when it is empty. */
export function knownUserIds(userIds: string[], why: string): Pick<AtRiskLine, "userIds" | "userIdsUnknown"> {
  return userIds.length > 0 ? { userIds } : { userIds: null, userIdsUnknown: why };
}

/** The summary's first words: how many rounds of each category, lost first. */
export function categoryCounts(lines: Array<{ category: AtRiskCategory }>): string {
  const count = (category: AtRiskCategory) => lines.filter((line) => line.category === category).length;
  return `lost: ${count("lost")} round(s), check: ${count("check")} round(s)`;
}
