import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { reconciliationOutcomes } from "@wallet/ledger/reads/reconciliations";
import { outboxBacklog } from "@wallet/ledger/side-effects/outbox-queries";
import { verifyLedger } from "@wallet/ledger/verify";
import type { SimSummary } from "@wallet/platform-sim/app";
import { consumeReports } from "./consume-reports.ts";
import { demoEnv } from "./env.ts";

// The first-run demo: demo players are created and launched through the operator API, then the
// platform simulator plays live crash rounds against them through the real signed callback path.
const bold = (text: string) => `\x1b[1m${text}\x1b[0m`;
const query = `?operatorId=${demoEnv.OPERATOR_ID}`;

async function operator(method: string, path: string, body?: unknown) {
  const response = await fetch(new URL(path, demoEnv.OPERATOR_API_URL), {
    method,
    headers: { authorization: `Bearer ${demoEnv.OPERATOR_API_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function simulator(method: string, path: string, body?: unknown) {
  const response = await fetch(new URL(path, demoEnv.SIM_URL), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as SimSummary;
}

const { db, batch, close } = createDatabase({ url: demoEnv.DATABASE_URL, poolSize: 2 });
try {
  console.log(bold(`creating and launching ${demoEnv.DEMO_PLAYERS} demo players through the operator API`));
  const users: string[] = [];
  for (let index = 1; index <= demoEnv.DEMO_PLAYERS; index++) {
    const player = await operator("POST", `/v1/players${query}`, {
      username: `demo-${index}`,
      currency: "EUR",
      balance: 100_000,
      maxbet: 10_000,
    });
    const userId = String(player.user_id);
    await operator("POST", `/v1/players/${userId}/free-bets${query}`, { count: 3, game: "crashGame" });
    await operator("POST", `/v1/players/${userId}/launch${query}`, {
      game: "crashGame",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
    });
    users.push(userId);
  }

  console.log(bold(`playing ${demoEnv.DEMO_ROUNDS} crash rounds through the signed callback path`));
  // A second early, so the rounds of this run are counted whatever MariaDB's clock says to the millisecond.
  const playedSince = new Date(Date.now() - 1_000);
  await simulator("POST", "/sim/play", { rounds: demoEnv.DEMO_ROUNDS, pauseMs: demoEnv.DEMO_PAUSE_MS });
  let state = await simulator("GET", "/sim/stats");
  while (state.running) {
    const s = state.stats;
    const failures = Object.entries(s.byStatus)
      .filter(([key]) => /\s5\d\d$|no answer$/.test(key))
      .reduce((sum, [, count]) => sum + count, 0);
    process.stdout.write(
      `\r  round ${s.rounds}/${demoEnv.DEMO_ROUNDS} · ${s.callbacks} callbacks · p50 ${s.latencyMs.p50} ms · p99 ${s.latencyMs.p99} ms · 5xx ${failures}   `,
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    state = await simulator("GET", "/sim/stats");
  }
  process.stdout.write("\n");

  for (let attempt = 0; attempt < 100 && (await outboxBacklog(db)).pending > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const backlog = await outboxBacklog(db);
  const s = state.stats;
  console.log(bold("\nsummary"));
  console.log(
    `  rounds played ${s.rounds} (voided ${s.roundsVoided}), closed ${s.roundsClosed}; platform retries ${s.retries}`,
  );
  console.log("  callbacks by action and status:");
  for (const [key, count] of Object.entries(s.byStatus)) console.log(`    ${key.padEnd(18)} ${count}`);
  console.log(
    `  callback latency: p50 ${s.latencyMs.p50} ms, p99 ${s.latencyMs.p99} ms, max ${s.latencyMs.max} ms`,
  );

  const { wallets, problems } = await verifyLedger(db);
  let agree = 0;
  let points = 0n;
  for (const seen of state.players) {
    if (!seen.userId || !users.includes(seen.userId)) continue;
    const found = await playerSummary({
      ctx: { db, batch, config: defaultLedgerConfig },
      input: { tenantId: demoEnv.OPERATOR_ID, userId: seen.userId },
    });
    if (found && seen.lastBalance !== undefined && found.balance === BigInt(seen.lastBalance)) agree += 1;
    points += found?.loyalty_points ?? 0n;
  }
  console.log(
    `  balances: ${problems.length === 0 ? "every one of" : `${problems.length} BROKEN of`} ${wallets} wallets equals its journal; ` +
      `${agree}/${users.length} demo players' balances equal what the platform last saw`,
  );
  console.log(
    `  side effects: ${backlog.pending === 0 ? "all applied" : `${backlog.pending} still pending`} (loyalty, tournaments, reporting, rg); demo players earned ${points} loyalty points`,
  );
  // The reporting team's part: without a consumer the round reports would wait in Redis, and
  // WalletReportingBacklog would open 25 minutes later (15 without a report taken, then 10 more).
  console.log(`  ${await consumeReports()}`);
  const reconciled = await reconciliationOutcomes(db, { tenantId: demoEnv.OPERATOR_ID, since: playedSince });
  console.log(
    `  reconciliation of the closed rounds against our books: ${reconciled.matched} matched, ${reconciled.mismatch} mismatch` +
      (reconciled.mismatch > 0 ? " (GET /v1/rounds/<round_id> names each difference)" : ""),
  );
  console.log(
    `  look one up: curl -H 'Authorization: Bearer ${demoEnv.OPERATOR_API_TOKEN}' ${demoEnv.OPERATOR_API_URL}/v1/players/${users[0]}`,
  );
  // On a line of its own, to paste before the README's "Send a callback by hand" block.
  console.log(`  a player to try, for the README's pnpm send-callback:\nUSER_ID=${users[0]}`);
  if (problems.length > 0 || agree !== users.length || reconciled.mismatch > 0) process.exitCode = 1;
} finally {
  await close();
}
