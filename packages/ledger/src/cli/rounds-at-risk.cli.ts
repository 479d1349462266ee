import { createDatabase } from "../db.ts";
import { silenceBeforeLateTime } from "../reads/answer-silences.ts";
import { categoryCounts, formatAtRiskLine, knownUserIds } from "../reads/at-risk-line.ts";
import { dataEndsBefore, type RoundAtRisk, roundsAtRisk } from "../reads/rounds-at-risk.ts";
import { readAckLog } from "./ack-log-check.ts";
import { readArgs } from "./args.ts";
import { printArchivedAfterPoint } from "./at-risk-archive.ts";
import { cliEnv } from "./env.ts";

// `pnpm --silent rounds:at-risk --failover-at <time>` (or `--point <time>`): after the ledger lost its
// newest commits (a failover to a replica that was behind, a restore to a point in time), the rounds
// to check against the platform's records, one JSON line each (`at-risk-line.ts`), `lost` ones first;
// the summary goes to stderr (docs/runbook.md, "After a database failover"). With REDIS_URL (or
// REDIS_CLUSTER_NODES) and REDIS_PREFIX set, it also reads the acknowledgement log and lists every
// round with a callback answered 200 that the ledger lacks (`ack-log-check.ts`). Exit codes: 0 listed;
// 1 no answer is stored before that failover; 2 usage (a flag unknown, a time not ISO 8601 with a
// zone); 3 the failover time looks late (a silence of the stored answers lies before it), nothing listed.
// After a restore, `--after-gtid <gtid> --archive <dir>` reads the archived binary log past the point
// instead (`at-risk-archive.ts`): a GTID names one transaction, where the binary log's times are whole seconds.
const usage =
  "usage: pnpm --silent rounds:at-risk (--failover-at <ISO 8601 time with zone> | --point <ISO 8601 time with zone> | --after-gtid <GTID> --archive <binlog dir>)";
const args = readArgs(
  process.argv.slice(2),
  {
    "failover-at": { type: "string" },
    point: { type: "string" },
    "after-gtid": { type: "string" },
    archive: { type: "string" },
  },
  usage,
);
const [afterGtid, archive] = [args.text("after-gtid"), args.text("archive")];
if (afterGtid !== undefined || archive !== undefined) {
  if (afterGtid === undefined || archive === undefined || args.text("point") || args.text("failover-at"))
    args.refuse("--after-gtid and --archive go together, without --point or --failover-at");
  await printArchivedAfterPoint({
    url: cliEnv.DATABASE_URL,
    afterGtid: afterGtid ?? "",
    archive: archive ?? "",
  });
  process.exit();
}
const failoverAt = args.instant("failover-at");
const given = args.instant("point");
if ((failoverAt === undefined) === (given === undefined))
  args.refuse("give one of --failover-at and --point");

const { db, close } = createDatabase({ url: cliEnv.DATABASE_URL, poolSize: 1 });
try {
  const silence = failoverAt && (await silenceBeforeLateTime(db, failoverAt));
  const point = given ?? (failoverAt ? await dataEndsBefore(db, failoverAt) : undefined);
  if (failoverAt && silence) {
    const seconds = ((silence.to.getTime() - silence.from.getTime()) / 1000).toFixed(1);
    console.error(
      `--failover-at ${failoverAt.toISOString()} looks late: the stored answers fall silent for ${seconds} s ` +
        `from ${silence.from.toISOString()} to ${silence.to.toISOString()} (${Math.round(silence.medianGapMs)} ms ` +
        "between answers around it), as when a failover moves the address, and the answers after it are most likely " +
        `the new primary's. The likely failover time is the silence's start: run again with --failover-at ${silence.from.toISOString()} ` +
        "(or with --point <time>, if you know where the surviving data ends). Nothing listed.",
    );
    process.exitCode = 3;
  } else if (point === undefined) {
    console.error("no answer is stored before that failover: every round is at risk");
    process.exitCode = 1;
  } else {
    const log = await readAckLog(db, cliEnv.redis, point);
    for (const warning of log.warnings) console.error(`warning: ${warning}`);
    const atRisk = await roundsAtRisk(db, { point, acknowledgedNotHeld: log.notHeld });
    for (const round of atRisk) console.log(formatAtRiskLine(lineOf(round)));
    const by = (reason: string) => atRisk.filter((round) => round.reason === reason).length;
    const window = `between ${point.toISOString()} and ${failoverAt?.toISOString() ?? "the loss"}`;
    console.error(
      `${categoryCounts(atRisk)}. The surviving data ends at ${point.toISOString()} (POINT). ` +
        `Lost: ${by("acknowledged_not_held")} with a callback answered 200 the ledger lacks, ${by("mismatch")} mismatch, ` +
        `${by("win_for_unknown_bet")} WIN refused for an unknown bet, ` +
        `${by("rollback_for_unknown_bet")} ROLL_BACK of an unknown bet, ${by("effects_without_close")} with effects but no close; ` +
        `check: ${by("open_at_point")} open at that point, ${by("unclosed")} begun since and unclosed. ${log.summary}` +
        (log.complete
          ? ""
          : ` A round played wholly ${window} may have left no trace here: run pnpm --silent side-effects lost-reports --since ${point.toISOString()}, ` +
            "and ask the platform for every callback it was answered 200 for in that window."),
    );
  }
} finally {
  await close();
}

function lineOf(round: RoundAtRisk) {
  return {
    category: round.category,
    reason: round.reason,
    operatorId: round.tenantId,
    roundId: round.roundId,
    ...knownUserIds(
      round.userIds,
      "the ledger holds no bet or loyalty award of this round: its players are in the platform's round history",
    ),
    createdAt: round.createdAt?.toISOString() ?? null,
    closedAt: round.closedAt?.toISOString() ?? null,
    evidence: round.evidence.join("; "),
    lostLines: round.lostLines.map((call) => ({
      providerTxId: call.providerTxId,
      action: call.action,
      userId: call.userId,
      amount: call.amount,
      acknowledgedAt: new Date(call.answeredAt).toISOString(),
    })),
  };
}
