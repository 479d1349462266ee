import { randomBytes } from "node:crypto";
import { createConnection } from "node:net";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { dropDatabase } from "@wallet/ledger/migrate";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { runDocBlockOk, startDocBlock } from "./doc-blocks.ts";

// The README's two first blocks, run as a newcomer types them: `npm start` on this machine's MariaDB
// and Redis (a database and a Redis prefix of its own, so the suite's other files are not touched),
// then "Send a callback by hand" with the player the demo names, then Ctrl-C.
const suffix = randomBytes(4).toString("hex");
const database = `docs_quick_start_${suffix}`;
const env = {
  DATABASE_URL: `mysql://root@127.0.0.1:3306/${database}`,
  REDIS_PREFIX: `docs-quick-start-${suffix}`,
};

/** Ctrl-C for what the test started, also when an assertion failed before the test's own. */
let stopping: (() => Promise<unknown>) | undefined;
afterAll(async () => {
  await stopping?.();
  await dropDatabase(env.DATABASE_URL);
  const redis = new Redis("redis://127.0.0.1:6379");
  const keys = await redis.keys(`${env.REDIS_PREFIX}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const portRefuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

async function waitFor(output: () => string, text: string, exited: Promise<unknown>, timeoutMs: number) {
  const started = Date.now();
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!output().includes(text)) {
    if (done) throw new Error(`npm start ended before "${text}":\n${output()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no "${text}" after ${timeoutMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("README: quick start, then a callback by hand", () => {
  it("npm start plays the demo, the named player's balance is what the ledger holds, Ctrl-C stops everything", async () => {
    const started = startDocBlock("README.md#quick-start", { env });
    stopping = started.stop;
    await waitFor(started.output, "The wallet is up", started.exited, 300_000);
    const output = started.output();
    expect(output).toMatch(/every one of \d+ wallets equals its journal/);
    expect(output).toMatch(/reconciliation of the closed rounds against our books: \d+ matched, 0 mismatch/);
    expect(output).toContain("side effects: all applied");
    const userId = /^USER_ID=(\S+)$/m.exec(output)?.[1];
    expect(userId).toBeDefined();

    const sent = await runDocBlockOk("README.md#send-callback", { env: { USER_ID: userId ?? "" } });
    expect(sent.stderr).toContain("HTTP 200");
    // Only the answer on stdout: what a person pipes into a file or a program reads.
    expect(sent.stdout.trim().split("\n")).toHaveLength(1);
    const answer = JSON.parse(sent.stdout) as {
      code: number;
      data: { user_id: string; currency: string; amount: number };
    };
    const { db, batch, close } = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
    const held = await playerSummary({
      ctx: { db, batch, config: defaultLedgerConfig },
      input: { tenantId: 1, userId: userId ?? "" },
    }).finally(close);
    expect(answer).toMatchObject({ code: 200, data: { user_id: userId, currency: "EUR" } });
    expect(BigInt(answer.data.amount)).toBe(held?.balance);

    await started.stop();
    for (const port of [3000, 3100, 3200, 9100, 9101, 9102]) expect(await portRefuses(port)).toBe(true);
  }, 360_000);
});
