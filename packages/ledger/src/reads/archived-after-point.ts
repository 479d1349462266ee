import { readArchiveAfter } from "../binlog/archive.ts";
import {
  type ArchivedLine,
  ArchivedRowsCollector,
  archivedTables,
  tenantKey,
} from "../binlog/archived-rows.ts";
import type { Db } from "../db.ts";
import {
  answersHeld,
  betsHeld,
  databaseName,
  journalLinesHeld,
  roundsHeld,
  tableColumns,
  userIdsOf,
  usersHeld,
} from "./restored-ledger.ts";
import { roundsWithoutClose } from "./rounds-at-risk.ts";

/** A line the lost history held and the restored ledger does not: what the operator repairs. */
export interface LostLine {
  providerTxId: string | null;
  /** BET, WIN, FREE_BET_WIN, ROLL_BACK, ADJUSTMENT, OPENING (journal), FREE_BET, CLOSE_ROUND. */
  kind: string;
  /** Signed money it moved (a BET negative); 0 for a FREE_BET or a CLOSE_ROUND. */
  amount: bigint;
  /** The player's `user_id`; null for a CLOSE_ROUND (a round's, not a player's). */
  userId: string | null;
}

/** One line of `pnpm rounds:at-risk --after-gtid … --archive …`: a round that lost something. */
export interface ArchivedLostRound {
  category: "lost";
  reason: "archived_after_point";
  operatorId: number;
  roundId: string;
  /** The players of its lost lines, and of its bets when its close was lost. */
  userIds: string[];
  /** As the lost history last had them (the archive), else as the restored ledger has them. */
  createdAt: Date | null;
  closedAt: Date | null;
  lines: LostLine[];
}

export interface ArchivedAfterPoint {
  rounds: ArchivedLostRound[];
  /** Lost lines of no round: adjustments, opening balances of players created after the point. */
  outsideRounds: Array<LostLine & { operatorId: number }>;
  /** Players created after the point that the restored ledger does not hold. */
  playersLost: number;
  /** Answers stored after the point (status 200), absent here, and in no line above (a zero settlement). */
  answersWithoutLine: number;
  transactions: number;
  files: string[];
  incomplete: boolean;
}

/**
 * After a restore to a point (docs/runbook.md, "Restoring the ledger to a point in time"): every row
 * the archived binary log holds after the point's GTID and the restored ledger `db` does not, named
 * by round with its operator, players and lost lines. Exact where a time is not: the binary log's
 * times are whole seconds, a GTID is one transaction. A row counts as lost by its meaning, not its
 * id: a journal line by (tenant, provider_tx_id, kind), a bet by (tenant, provider_tx_id), a close by
 * (tenant, round), so a callback the platform resent after the restore and booked again is not lost.
 */
export async function archivedAfterPoint(
  db: Db,
  input: { afterGtid: string; archive: string },
): Promise<ArchivedAfterPoint> {
  const collector = new ArchivedRowsCollector(await databaseName(db), await tableColumns(db, archivedTables));
  const read = await readArchiveAfter(input.archive, input.afterGtid, (transaction) =>
    collector.add(transaction),
  );
  const { rows } = collector;
  const ids = (lines: ArchivedLine[]) =>
    lines.flatMap((line) =>
      line.providerTxId === null ? [] : [{ tenantId: line.tenantId, value: line.providerTxId }],
    );

  const journalHeld = await journalLinesHeld(db, ids(rows.journal));
  const freeBets = rows.bets.filter((bet) => bet.kind === "FREE_BET");
  const freeBetsHeld = await betsHeld(db, ids(freeBets));
  const unclosed = new Set(
    (
      await roundsWithoutClose(
        db,
        rows.closes.map((close) => ({ tenantId: close.tenantId, roundId: close.roundId ?? "" })),
      )
    ).map((round) => tenantKey(round.tenantId, round.roundId)),
  );
  const lost = [
    ...rows.journal.filter(
      (line) => !journalHeld.has(`${tenantKey(line.tenantId, line.providerTxId ?? "")}\n${line.kind}`),
    ),
    ...freeBets.filter((bet) => !freeBetsHeld.has(tenantKey(bet.tenantId, bet.providerTxId ?? ""))),
    ...rows.closes.filter((close) => unclosed.has(tenantKey(close.tenantId, close.roundId ?? ""))),
  ];

  // Player ids the archive created are the lost history's; any other was there before the point.
  const before = await userIdsOf(
    db,
    [...new Set(rows.bets.concat(lost).map((line) => line.playerId))].filter(
      (id): id is number => id !== null && !rows.players.has(id),
    ),
  );
  const userIdOf = (playerId: number | null) =>
    playerId === null ? null : (rows.players.get(playerId)?.userId ?? before.get(playerId) ?? null);
  const lostLine = (line: ArchivedLine): LostLine => ({
    providerTxId: line.providerTxId,
    kind: line.kind,
    amount: line.amount,
    userId: userIdOf(line.playerId),
  });

  const byRound = new Map<string, ArchivedLine[]>();
  for (const line of lost.filter((line) => line.roundId !== null)) {
    const key = tenantKey(line.tenantId, line.roundId ?? "");
    byRound.set(key, [...(byRound.get(key) ?? []), line]);
  }
  const held = await roundsHeld(
    db,
    [...byRound.values()].map((lines) => ({
      tenantId: lines[0]?.tenantId ?? 0,
      value: lines[0]?.roundId ?? "",
    })),
  );
  const rounds = [...byRound].map(([key, lines]): ArchivedLostRound => {
    const first = lines[0] as ArchivedLine;
    const round = rows.rounds.get(key) ?? held.rounds.get(key);
    const closeLost = lines.some((line) => line.kind === "CLOSE_ROUND");
    const bettors = closeLost
      ? [
          ...rows.bets
            .filter((bet) => tenantKey(bet.tenantId, bet.roundId ?? "") === key)
            .map((bet) => bet.playerId),
          ...held.bettors
            .filter((bet) => tenantKey(bet.tenantId, bet.roundId) === key)
            .map((bet) => bet.playerId),
        ]
      : [];
    const userIds = [...lines.map((line) => line.playerId), ...bettors].map(userIdOf);
    return {
      category: "lost",
      reason: "archived_after_point",
      operatorId: first.tenantId,
      roundId: first.roundId ?? "",
      userIds: [...new Set(userIds.filter((id): id is string => id !== null))].sort(),
      createdAt: round?.createdAt ?? null,
      closedAt: round?.closedAt ?? null,
      lines: lines.map(lostLine),
    };
  });
  rounds.sort(
    (a, b) =>
      (a.createdAt?.getTime() ?? Number.MAX_SAFE_INTEGER) -
        (b.createdAt?.getTime() ?? Number.MAX_SAFE_INTEGER) ||
      a.operatorId - b.operatorId ||
      (a.roundId < b.roundId ? -1 : a.roundId > b.roundId ? 1 : 0),
  );

  const named = new Set(lost.map((line) => tenantKey(line.tenantId, line.providerTxId ?? "")));
  const answered = rows.answers.filter((answer) => answer.status === 200);
  const answers = await answersHeld(
    db,
    answered.map((answer) => ({ tenantId: answer.tenantId, value: answer.providerTxId })),
  );
  const created = [...rows.players.values()].map((player) => ({
    tenantId: player.tenantId,
    value: player.userId,
  }));
  const playersHeld = await usersHeld(db, created);
  return {
    rounds,
    outsideRounds: lost
      .filter((line) => line.roundId === null)
      .map((line) => ({ operatorId: line.tenantId, ...lostLine(line) })),
    playersLost: created.filter((player) => !playersHeld.has(tenantKey(player.tenantId, player.value)))
      .length,
    answersWithoutLine: answered.filter((answer) => {
      const key = tenantKey(answer.tenantId, answer.providerTxId);
      return !answers.has(key) && !named.has(key);
    }).length,
    transactions: rows.transactions,
    files: read.files,
    incomplete: read.incomplete,
  };
}
