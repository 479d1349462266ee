import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { sha256Hex } from "@wallet/contracts/hash";
import { MariaDbServer } from "@wallet/faults/servers/mariadb-server";
import type { Call } from "@wallet/ledger/calls/call";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { migrateDatabase } from "@wallet/ledger/migrate";
import { betBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import type { TestPlayer } from "@wallet/ledger/testing/players";
import { runCalls } from "@wallet/ledger/testing/run-calls";
import { authenticate } from "@wallet/ledger/verbs/authenticate";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { upsertTenant } from "@wallet/ledger/verbs/upsert-tenant";

/**
 * `pnpm bench:group-commit` (issue 41): the group commit's cost per batch on one server, the path
 * every deployment runs. On a MariaDB of its own: `PLAYERS` players, then `BATCHES` batches of one
 * BET each (one `runBatch`: two round trips), one after another, then as many of one WIN each.
 * Prints wall time, this process's and the server's CPU, and the server's statements per batch. Run it on two
 * checkouts, alternated, to compare them (docs/performance.md); it never fails on a number.
 */
const PLAYERS = Number(process.env.GC_PLAYERS ?? 16);
const BATCHES = Number(process.env.GC_BATCHES ?? 600);
const label = process.env.GC_LABEL ?? "this checkout";

const dir = await mkdtemp(`${tmpdir()}/wallet-group-commit-`);
const server = await MariaDbServer.start(dir);
const url = `mysql://root@127.0.0.1:${server.port}/bench_group_commit`;
try {
  await migrateDatabase(url);
  const database = createDatabase({ url, poolSize: 4 });
  const ctx: LedgerContext = { db: database.db, batch: database.batch, config: { ...defaultLedgerConfig } };
  await upsertTenant({ ctx, input: { id: 1, publicKey: "public-key-1" } });
  const players: TestPlayer[] = [];
  for (let index = 0; index < PLAYERS; index++) {
    const userId = `gc-${index}`;
    const sessionToken = `session-${randomUUID()}`;
    await createPlayer({
      ctx,
      input: { tenantId: 1, userId, username: userId, currency: "EUR", balance: 10n ** 12n, maxbet: 1_000n },
    });
    const { userToken } = await mintUserToken({ ctx, input: { tenantId: 1, userId, ttlSeconds: 3_600 } });
    await authenticate({
      ctx,
      input: {
        tenantId: 1,
        body: { user_token: userToken, session_token: sessionToken, platform: "web", currency: "EUR" },
      },
    });
    players.push({ tenantId: 1, userId, playerId: 0, sessionToken, currency: "EUR" });
  }
  const call = (op: Call["op"], body: Record<string, unknown>): Call => {
    const raw = JSON.stringify(body);
    return { op, tenantId: 1, body: JSON.parse(raw), bodySha256: sha256Hex(raw) };
  };
  const statements = async () => {
    const [rows] = await database.batch.query("SHOW GLOBAL STATUS LIKE 'Questions'");
    return Number((rows as Array<{ Value: string }>)[0]?.Value);
  };
  // The server's CPU (user + system, clock ticks of 10 ms) from /proc: the statements' cost lands there.
  const serverCpuMs = async () => {
    const fields = (await readFile(`/proc/${server.pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  for (const kind of ["BET", "WIN"] as const) {
    const questions = await statements();
    const serverBefore = await serverCpuMs();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let batch = 0; batch < BATCHES; batch++) {
      const calls = players.map((player) => {
        const bet = betBody(player, {
          amount: 10,
          provider_tx_id: `bet-${player.userId}-${batch}`,
          action_id: `round-${player.userId}-${batch}`,
        });
        return kind === "BET"
          ? call("withdraw", bet)
          : call(
              "deposit",
              settleBody(player, bet, "WIN", { provider_tx_id: `win-${player.userId}-${batch}` }),
            );
      });
      const results = await runCalls(ctx, calls);
      if (results.some((result) => !result.ok)) throw new Error(`a ${kind} failed`);
    }
    const wallMs = (performance.now() - started) / BATCHES;
    const used = process.cpuUsage(cpu);
    const sent = (await statements()) - questions - 1;
    const serverMs = ((await serverCpuMs()) - serverBefore) / BATCHES;
    console.log(
      `[group-commit] ${label} ${kind}: ${wallMs.toFixed(3)} ms wall, ${((used.user + used.system) / 1_000 / BATCHES).toFixed(3)} ms CPU here, ${serverMs.toFixed(3)} ms server CPU per batch of ${PLAYERS}; ${(sent / BATCHES).toFixed(1)} statements per batch`,
    );
  }
  await database.close();
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
