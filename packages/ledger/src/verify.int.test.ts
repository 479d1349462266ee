import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { betBody, settleBody } from "./testing/callback-bodies.ts";
import { testsOwn } from "./testing/general-log.ts";
import { playerWithSession } from "./testing/players.ts";
import { sendDeposit, sendWithdraw } from "./testing/send-callbacks.ts";
import { useTestLedger } from "./testing/test-ledger.ts";
import { verifyLedger } from "./verify.ts";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

const ledger = useTestLedger();

async function verifyCli(url = ledger.url): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run("pnpm", ["exec", "tsx", "src/cli/verify.cli.ts"], {
      cwd: packageDir,
      env: { ...process.env, DATABASE_URL: url },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("ledger:verify", () => {
  it("passes after real traffic and exits non-zero once a balance drifts from its journal", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 4_000 });
    await sendWithdraw(ledger, bet);
    await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 9_000 }));
    expect((await verifyLedger(ledger.db)).problems).toEqual([]);
    const clean = await verifyCli();
    expect(clean.code).toBe(0);
    expect(clean.output).toMatch(/ledger ok: \d+ wallets/);

    await ledger.db.execute(
      sql`UPDATE wallets SET balance = balance + 1 WHERE player_id = ${player.playerId}`,
    );
    const { problems } = await verifyLedger(ledger.db);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ balance: 15_001n, journalSum: 15_000n });
    const broken = await verifyCli();
    expect(broken.code).toBe(1);
    expect(broken.output).toMatch(/ledger BROKEN: 1 of \d+ wallets fail/);
    await ledger.db.execute(
      sql`UPDATE wallets SET balance = balance - 1 WHERE player_id = ${player.playerId}`,
    );
  });

  it("a ledger it cannot read is exit 2 and one line saying why, never 'BROKEN' nor a stack trace", async () => {
    const wrong = new URL(ledger.url);
    wrong.pathname = "/no_such_wallet_database";
    const unread = await verifyCli(wrong.toString());
    expect(unread.code).toBe(2);
    expect(unread.output.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^ledger:verify could not read the ledger at [\d.]+:\d+: .*no_such_wallet_database/,
      ),
    ]);
  });

  it("the runtime user cannot UPDATE or DELETE a journal line: error 1142, the line unchanged", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    // ctx.db is the product's own connection: the runtime user of schema/privileges.ts. The
    // statements are the test's own (`testsOwn`), not the product's: the gate leaves them out.
    for (const statement of [
      sql`${sql.raw(testsOwn)}UPDATE journal_entries SET amount = 0 WHERE player_id = ${player.playerId}`,
      sql`${sql.raw(testsOwn)}DELETE FROM journal_entries WHERE player_id = ${player.playerId}`,
    ]) {
      const refused = await ledger.ctx.db
        .execute(statement)
        .catch((error: { cause?: unknown }) => error.cause);
      expect(refused).toMatchObject({ errno: 1142, code: "ER_TABLEACCESS_DENIED_ERROR" });
      expect(String((refused as Error).message)).toMatch(
        /command denied to user 'rt_\w+'@'[^']*' for table .*journal_entries/,
      );
    }
    const [lines] = (await ledger.db.execute(
      sql`SELECT amount, balance_after FROM journal_entries WHERE player_id = ${player.playerId}`,
    )) as unknown as [Array<{ amount: string; balance_after: string }>];
    expect(lines.map((line) => [String(line.amount), String(line.balance_after)])).toEqual([
      ["10000", "10000"],
    ]);
    expect(await verifyLedger(ledger.db)).toMatchObject({ problems: [] });
  });
});
