import { mkdir, readFile, rm } from "node:fs/promises";
import { repoRoot, runDocBlockOk } from "@wallet/system-tests/docs/doc-blocks";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import type { FaultSystem } from "../../harness/fault-system.ts";
import { operatorToken } from "../../harness/fault-system.ts";
import type { SeenAnswer } from "../../harness/platform-load.ts";

/** One line of `at-risk.ndjson` or `lost-whole.ndjson` (`packages/ledger/src/reads/at-risk-line.ts`). */
export interface DrillLine {
  category: "lost" | "check";
  reason: string;
  operatorId: number;
  roundId: string;
  userIds: string[] | null;
  createdAt: string | null;
  closedAt: string | null;
  evidence: string;
  /** The round's callbacks answered 200 that the ledger lacks, from the acknowledgement log. */
  lostLines?: Array<{ providerTxId: string; action: string; userId: string | null; amount: string }>;
}

/**
 * The section's blocks, by `<file>#<id>`: named in the test files that run them (docs-run.test.ts
 * holds every run block to a test that names it), handed in here.
 */
export interface DrillBlocks {
  roundsAtRisk: string;
  lostReports: string;
  list: string;
}
export interface RepairBlocks {
  round: string;
  transactions: string;
  adjust: string;
}

export interface Drill {
  /** Where the surviving data ends, as the first command printed it (the reader's POINT). */
  point: string;
  /** The first command's summary (stderr). */
  summary: string;
  atRisk: DrillLine[];
  lostWhole: DrillLine[];
  /** The variables every block of the section reads, as a reader sets them. */
  env: Record<string, string>;
  /** The folder the blocks ran in, holding the saved files. */
  dir: string;
}

/**
 * The runbook's "After a database failover" run as an SRE runs it, block by block and as written
 * (`runDocBlockOk`), against the system after its failover: the variables set as the section says,
 * the saved files read back. The blocks run in a folder of the checkout's (pnpm finds the workspace
 * from it) that git ignores.
 */
export async function runFailoverDrill(
  system: FaultSystem,
  operatorApi: AppProcess,
  failoverAt: Date,
  scenario: string,
  blocks: DrillBlocks,
): Promise<Drill> {
  const dir = `${repoRoot}.logs/drill/${scenario}`;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const appEnv = system.appEnv();
  const env: Record<string, string> = {
    NEW_PRIMARY_URL: system.ledger.url,
    FAILOVER_AT: failoverAt.toISOString(),
    REDIS_URL: appEnv.REDIS_URL ?? "",
    REDIS_PREFIX: appEnv.REDIS_PREFIX ?? "",
    OPERATOR_API: `http://127.0.0.1:${operatorApi.port}`,
    TOKEN: operatorToken,
  };
  const listed = await runDocBlockOk(blocks.roundsAtRisk, { env, cwd: dir });
  const point = /The surviving data ends at (\S+) \(POINT\)/.exec(listed.stderr)?.[1];
  if (!point) throw new Error(`no point in rounds:at-risk's summary:\n${listed.stderr}`);
  env.POINT = point;
  await runDocBlockOk(blocks.lostReports, { env, cwd: dir });
  const table = await runDocBlockOk(blocks.list, { env, cwd: dir });
  const drill = {
    point,
    summary: listed.stderr,
    atRisk: await savedLines(`${dir}/at-risk.ndjson`),
    lostWhole: await savedLines(`${dir}/lost-whole.ndjson`),
    env,
    dir,
  };
  // The table holds a line per round of both files, lost first.
  const rows = table.stdout.split("\n").filter(Boolean);
  const all = [...drill.atRisk, ...drill.lostWhole];
  if (rows.length !== all.length || rows.slice(0, lostCount(all)).some((row) => !row.startsWith("lost\t")))
    throw new Error(`the list does not show the saved files:\n${table.stdout}`);
  return drill;
}

const lostCount = (lines: DrillLine[]) => lines.filter((line) => line.category === "lost").length;

/** A saved file as a program reads it: every line one JSON object (a banner would fail here). */
async function savedLines(file: string): Promise<DrillLine[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as DrillLine);
}

export interface Repair {
  line: DrillLine;
  /** The lost callback repaired: the platform's own acknowledgement of it. */
  repaired: SeenAnswer;
  amount: number;
  round: unknown;
  journalBefore: { items: Array<Record<string, unknown>> };
  adjusted: Record<string, unknown>;
  journalAfter: { items: Array<Record<string, unknown>> };
}

/** What an adjustment moves for a lost money line (the runbook's step 4); FREE_BET and CLOSE_ROUND move none. */
const repairAmount: Record<string, (amount: number) => number> = {
  BET: (amount) => -amount,
  WIN: (amount) => amount,
  FREE_BET_WIN: (amount) => amount,
};

/**
 * Steps 3 and 4 for one round listed as lost: its status and a player's journal read through the
 * operator API, then one adjustment for one of its lost lines (the platform's history is the
 * simulator's acknowledgements: it names the players of a round lost whole, which no list can), and
 * the journal again. Rounds whose players the lists name come first. Undefined when no lost line of a
 * round listed as lost moves money.
 */
export async function compareAndRepair(
  drill: Drill,
  lost: SeenAnswer[],
  blocks: RepairBlocks,
): Promise<Repair | undefined> {
  const lostLines = [...drill.atRisk, ...drill.lostWhole].filter((entry) => entry.category === "lost");
  const named = (line: DrillLine) => (line.userIds === null ? 1 : 0);
  for (const line of lostLines.sort((a, b) => named(a) - named(b))) {
    const repaired = lost.find(
      (answer) =>
        answer.operatorId === line.operatorId &&
        answer.roundId === line.roundId &&
        answer.label in repairAmount &&
        answer.userId !== null &&
        (line.userIds === null || line.userIds.includes(answer.userId)),
    );
    if (!repaired?.userId || !repaired.providerTxId) continue;
    const amount = (repairAmount[repaired.label] ?? ((value: number) => value))(repaired.amount ?? 0);
    const env = {
      ...drill.env,
      OPERATOR_ID: String(line.operatorId),
      ROUND_ID: line.roundId,
      USER_ID: repaired.userId,
      KIND: repaired.label,
      PROVIDER_TX_ID: repaired.providerTxId,
      AMOUNT: String(amount),
    };
    const read = async (ref: string) =>
      JSON.parse((await runDocBlockOk(ref, { env, cwd: drill.dir })).stdout) as Record<string, unknown>;
    const round = await read(blocks.round);
    const journalBefore = (await read(blocks.transactions)) as Repair["journalBefore"];
    const adjusted = await read(blocks.adjust);
    const journalAfter = (await read(blocks.transactions)) as Repair["journalAfter"];
    return { line, repaired, amount, round, journalBefore, adjusted, journalAfter };
  }
  return undefined;
}
