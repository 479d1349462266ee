import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { archivedTables } from "@wallet/ledger/binlog/archived-rows";
import { databaseName, tableColumns } from "@wallet/ledger/reads/restored-ledger";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { callbackInput, sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { openTestLedger } from "@wallet/ledger/testing/test-ledger";
import { adjustBalance } from "@wallet/ledger/verbs/adjust-balance";
import { grantFreeBets } from "@wallet/ledger/verbs/grant-free-bets";
import { MariaDbServer } from "../../servers/mariadb-server.ts";
import { gtidBinlogPos, primaryArgs } from "./binlogged-database.ts";

/**
 * Captures the fixture of packages/ledger/src/binlog/decoded-rows.test.ts: what `mariadb-binlog
 * --base64-output=decode-rows --verbose` prints of the wallet's own writes after a point, on a MariaDB
 * of its own with the runbook's binary-log settings, written by the ledger's verbs (no SQL by hand).
 * Run again when MariaDB or the schema changes: `node --import tsx faults/src/faults/backup/capture-binlog-fixture.ts`.
 */
const run = promisify(execFile);
const fixtures = fileURLToPath(new URL("../../../../packages/ledger/src/binlog/fixtures/", import.meta.url));

const dir = await mkdtemp(`${tmpdir()}/wallet-binlog-fixture-`);
const server = await MariaDbServer.start(dir, { extraArgs: primaryArgs() });
const ledger = await openTestLedger(server.url(""));
try {
  const alice = await playerWithSession(ledger, { userId: "alice", balance: 10_000n });
  const before = betBody(alice, { provider_tx_id: "bet-before", amount: 1_000, action_id: "r-before" });
  await sendWithdraw(ledger, before);
  const point = await gtidBinlogPos(server);

  // After the point: a player whose user id holds a quote, a backslash, a tab and a non-ASCII letter.
  const bob = await playerWithSession(ledger, { userId: "bob'\\\t\u00e9", balance: 5_000n, tenantId: 2 });
  await sendDeposit(ledger, settleBody(alice, before, "WIN", { provider_tx_id: "win-after", amount: 2_500 }));
  const voided = betBody(alice, { provider_tx_id: "bet-voided", amount: 700, action_id: "r-after" });
  await sendWithdraw(ledger, voided);
  await sendDeposit(ledger, settleBody(alice, voided, "ROLL_BACK", { provider_tx_id: "rollback-after" }));
  await sendWithdraw(
    ledger,
    betBody(bob, { provider_tx_id: "bet-bob", amount: 300, action_id: "r-after" }),
    2,
  );
  await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: alice.userId, count: 1 } });
  await sendWithdraw(
    ledger,
    betBody(alice, { provider_tx_id: "free-after", action: "FREE_BET", amount: 0, action_id: "r-after" }),
  );
  await sendDeposit(ledger, closeRoundBody("r-before", [1_000], [2.5]));
  const adjustment = { user_id: alice.userId, amount: 123, reason: "fixture", reference: "fix-1" };
  await adjustBalance({ ctx: ledger.ctx, input: callbackInput(1, adjustment) });

  const data = `${dir}/mariadb`;
  const logs = (await readdir(data)).filter((name) => /\.\d{6}$/.test(name)).sort();
  const { stdout } = await run(
    "mariadb-binlog",
    [
      "--base64-output=decode-rows",
      "--verbose",
      `--start-position=${point}`,
      ...logs.map((name) => `${data}/${name}`),
    ],
    { encoding: "latin1", maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(`${fixtures}after-point.binlog.txt`, stdout, "latin1");
  const columns = Object.fromEntries(await tableColumns(ledger.db, archivedTables));
  const fixture = { point, database: await databaseName(ledger.db), columns };
  await writeFile(`${fixtures}after-point.columns.json`, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`captured ${stdout.length} bytes after ${point} into ${fixtures}`);
} finally {
  await ledger.drop();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
