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
    const found = await archivedAfterPoint(db, input);
    for (const round of found.rounds) console.log(stringifyJson(round));
    for (const line of found.outsideRounds) console.error(`lost outside any round: ${stringifyJson(line)}`);
    const lines = found.rounds.reduce((sum, round) => sum + round.lines.length, 0);
    console.error(
      `${found.transactions} transactions after ${input.afterGtid} in ${found.files.length} archived file(s): ` +
        `${found.rounds.length} rounds lost ${lines} lines, ${found.outsideRounds.length} lost lines outside rounds, ` +
        `${found.playersLost} players created since are missing, ${found.answersWithoutLine} answers stored since ` +
        "(200) are missing and moved no money." +
        (found.incomplete
          ? " The archive ends inside a transaction (the archiver got part of it): its rows are not counted."
          : ""),
    );
  } finally {
    await close();
  }
}
