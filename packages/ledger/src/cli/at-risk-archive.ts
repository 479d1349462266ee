import { stringifyJson } from "@wallet/contracts/json";
import { createDatabase } from "../db.ts";
import { archivedAfterPoint } from "../reads/archived-after-point.ts";

/**
 * `pnpm rounds:at-risk --after-gtid <gtid> --archive <dir>` (rounds-at-risk.cli.ts): after a restore
 * to a point, every round that lost something, read from the archived binary log past the point and
 * compared with the restored ledger (`reads/archived-after-point.ts`), one JSON line each; what is
 * lost outside rounds and how the archive was read go to stderr.
 */
export async function printArchivedAfterPoint(input: { url: string; afterGtid: string; archive: string }) {
  const { db, close } = createDatabase({ url: input.url, poolSize: 1 });
  try {
    // What cannot be read (no such GTID, no archive, mariadb-binlog missing) is said in one line, exit 1.
    const found = await archivedAfterPoint(db, input).catch((error: Error) => {
      console.error(`cannot read the archive: ${error.message}`);
      process.exitCode = 1;
    });
    if (!found) return;
    for (const round of found.rounds) console.log(stringifyJson(round));
    for (const line of found.outsideRounds) console.error(`lost outside any round: ${stringifyJson(line)}`);
    const lines = found.rounds.reduce((sum, round) => sum + round.lines.length, 0);
    console.error(
      `${found.transactions} transactions after ${input.afterGtid} in ${found.files.length} archived file(s): ` +
        `${found.rounds.length} rounds lost ${lines} lines; lost outside any round: ${found.outsideRounds.length} lines; ` +
        `players created since and missing: ${found.playersLost}; answers (200) stored since, missing, with no line: ` +
        `${found.answersWithoutLine}.` +
        (found.incomplete
          ? " The archive ends inside a transaction (the archiver got part of it): its rows are not counted."
          : ""),
    );
  } finally {
    await close();
  }
}
