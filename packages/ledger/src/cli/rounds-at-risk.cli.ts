import { parseArgs } from "node:util";
import { stringifyJson } from "@wallet/contracts/json";
import { createDatabase } from "../db.ts";
import { dataEndsBefore, roundsAtRisk } from "../reads/rounds-at-risk.ts";
import { printArchivedAfterPoint } from "./at-risk-archive.ts";
import { cliEnv } from "./env.ts";

// `pnpm rounds:at-risk --failover-at <time>` (or `--point <time>`): after the ledger lost its newest
// commits (a failover to a replica that was behind, a restore to a point in time), the rounds to check
// against the platform's records, one JSON line each; the summary goes to stderr (docs/runbook.md).
const usage =
  "usage: pnpm rounds:at-risk (--failover-at <ISO time> | --point <ISO time> | --after-gtid <GTID> --archive <binlog dir>)";
const { values } = parseArgs({
  options: {
    "failover-at": { type: "string" },
    point: { type: "string" },
    // After a restore: the archived binary log past the point's GTID, exact where a time is not.
    "after-gtid": { type: "string" },
    archive: { type: "string" },
  },
  strict: true,
});
const [afterGtid, archive] = [values["after-gtid"], values.archive];
if (afterGtid !== undefined || archive !== undefined) {
  if (afterGtid === undefined || archive === undefined || values.point || values["failover-at"]) {
    console.error(usage);
    process.exit(2);
  }
  await printArchivedAfterPoint({ url: cliEnv.DATABASE_URL, afterGtid, archive });
  process.exit();
}
const time = (text: string | undefined) => {
  if (text === undefined) return undefined;
  const parsed = new Date(text);
  if (Number.isNaN(parsed.getTime())) {
    console.error(`not a time: ${text}\n${usage}`);
    process.exit(2);
  }
  return parsed;
};
const failoverAt = time(values["failover-at"]);
const given = time(values.point);
if ((failoverAt === undefined) === (given === undefined)) {
  console.error(usage);
  process.exit(2);
}

const { db, close } = createDatabase({ url: cliEnv.DATABASE_URL, poolSize: 1 });
try {
  const point = given ?? (failoverAt ? await dataEndsBefore(db, failoverAt) : undefined);
  if (point === undefined) {
    console.error("no answer is stored before that failover: every round is at risk");
    process.exitCode = 1;
  } else {
    const atRisk = await roundsAtRisk(db, { point });
    for (const round of atRisk) console.log(stringifyJson(round));
    const by = (reason: string) => atRisk.filter((round) => round.reason === reason).length;
    console.error(
      `the surviving data ends at ${point.toISOString()}: ${atRisk.length} rounds to check against the platform ` +
        `(${by("mismatch")} mismatch, ${by("open_at_point")} open at that point, ${by("unclosed")} begun since and unclosed, ` +
        `${by("effects_without_close")} with effects but no close). ` +
        `A round played wholly between ${point.toISOString()} and ${failoverAt?.toISOString() ?? "the failover"} left no trace here: ` +
        "ask the platform for every callback it was answered 200 for in that window.",
    );
  }
} finally {
  await close();
}
