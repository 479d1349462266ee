import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { asRoot, MariaDbServer } from "@wallet/faults/servers/mariadb-server";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { pingDatabase } from "@wallet/ledger/ping";

/**
 * `pnpm bench:role-check` (issue 39): what re-checking the server's role costs, on a MariaDB of its
 * own (its global counters are this program's alone, and only there may it set read_only).
 * 1. The role watch: a writableOnly Database left idle for 10 s, then fenced (read_only ON) for 10 s:
 *    the server's Com_select and Connections per second.
 * 2. The fence on the hot path: the group commit's pattern (a connection of the multi-statement pool,
 *    one two-statement round trip, released) and a drizzle `SELECT 1`, on 8 lanes, through a
 *    writableOnly Database and through a plain one, alternated: this process's CPU (user + system)
 *    and wall time per iteration. Prints the numbers; never fails on them.
 */
const SECONDS = 10;
const LANES = 8;
const ITERATIONS = 1_500;
const ROUNDS = 6;

const dir = await mkdtemp(`${tmpdir()}/wallet-role-check-`);
const server = await MariaDbServer.start(dir);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const status = () =>
  asRoot(server, async (connection) => {
    const [rows] = await connection.query(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Connections')",
    );
    return Object.fromEntries(
      (rows as Array<{ Variable_name: string; Value: string }>).map((row) => [
        row.Variable_name,
        Number(row.Value),
      ]),
    ) as { Com_select: number; Connections: number };
  });
const setReadOnly = (on: boolean) =>
  asRoot(server, (connection) => connection.query(`SET GLOBAL read_only = ${on ? "ON" : "OFF"}`));

/** Per second over SECONDS, less the measuring connection's own (one connection per `status()`). */
async function perSecond(): Promise<{ selects: number; connections: number }> {
  const before = await status();
  await pause(SECONDS * 1_000);
  const after = await status();
  return {
    selects: (after.Com_select - before.Com_select) / SECONDS,
    connections: (after.Connections - before.Connections - 1) / SECONDS,
  };
}

async function iterate(database: Database): Promise<void> {
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const connection = await database.batch.getConnection();
    try {
      await connection.query("SELECT 1; SELECT 2");
    } finally {
      connection.release();
    }
    await pingDatabase(database.db);
  }
}

/** CPU and wall time per iteration of LANES lanes of ITERATIONS each. */
async function measure(database: Database): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: LANES }, () => iterate(database)));
  const used = process.cpuUsage(cpu);
  const count = LANES * ITERATIONS;
  return {
    cpuUs: (used.user + used.system) / count,
    wallUs: ((performance.now() - started) * 1_000) / count,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

try {
  const url = server.url("");
  console.log(`role watch, every 250 ms (the default), one Database; ${SECONDS} s each:`);
  const idle = await perSecond();
  console.log(
    `  baseline, no Database: ${idle.selects.toFixed(1)} SELECT/s, ${idle.connections.toFixed(1)} connections/s`,
  );
  const watched = createDatabase({ url, poolSize: LANES, batchPoolSize: LANES, writableOnly: true });
  await pause(500);
  const writable = await perSecond();
  console.log(
    `  writable server: ${writable.selects.toFixed(1)} SELECT/s, ${writable.connections.toFixed(1)} connections/s`,
  );
  await setReadOnly(true);
  await pause(500);
  const fenced = await perSecond();
  console.log(
    `  read-only server (fenced): ${fenced.selects.toFixed(1)} SELECT/s, ${fenced.connections.toFixed(1)} connections/s`,
  );
  await setReadOnly(false);
  await pause(500);

  const plain = createDatabase({ url, poolSize: LANES, batchPoolSize: LANES });
  const sides = { plain, fenceable: watched };
  const results: Record<keyof typeof sides, Array<{ cpuUs: number; wallUs: number }>> = {
    plain: [],
    fenceable: [],
  };
  // Warm both (connections opened, JIT), then alternate which goes first.
  await measure(plain);
  await measure(watched);
  for (let round = 0; round < ROUNDS; round++) {
    const order: Array<keyof typeof sides> =
      round % 2 === 0 ? ["plain", "fenceable"] : ["fenceable", "plain"];
    for (const side of order) results[side].push(await measure(sides[side]));
  }
  console.log(
    `hot path: ${LANES} lanes × ${ITERATIONS} iterations (a batch-pool round trip of two statements + a drizzle SELECT 1), ${ROUNDS} rounds each, alternated; medians per iteration:`,
  );
  for (const side of ["plain", "fenceable"] as const) {
    const cpu = results[side].map((result) => result.cpuUs);
    const wall = results[side].map((result) => result.wallUs);
    console.log(
      `  ${side === "plain" ? "plain (no writableOnly)" : "writableOnly (fence + watch)"}: CPU ${median(cpu).toFixed(1)} µs ` +
        `(${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)}), wall ${median(wall).toFixed(1)} µs ` +
        `(${Math.min(...wall).toFixed(1)}–${Math.max(...wall).toFixed(1)})`,
    );
  }
  await Promise.all([watched.close(), plain.close()]);
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
