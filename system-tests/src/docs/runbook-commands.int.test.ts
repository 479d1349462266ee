import { beforeAll, describe, expect, inject, it } from "vitest";
import { type AppProcess, authedPlayer, callGateway, useTestSystem } from "../harness/system.ts";
import { runDocBlockOk } from "./doc-blocks.ts";

// The runbook's "Commands used below", the bare-host block, run as written against a running system
// (a database and Redis prefix of its own): each check must answer what its comment says it shows.
const system = useTestSystem();
let gateway: AppProcess;
let worker: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  worker = await system.startWorker();
  gateway = await system.startGateway();
  api = await system.startOperatorApi();
}, 60_000);

describe("runbook: the bare-host checks", () => {
  it("each names what it says: ready services, the live worker, a partition's queue at concurrency 1, the ledger ok", async () => {
    // One callback, so the partition's queue exists as BullMQ keeps it.
    const player = await authedPlayer(system, gateway);
    expect((await callGateway(gateway, "/balance", { user_id: player.userId })).status).toBe(200);
    const database = new URL(system.ledger.url);
    // The innodb_trx check needs PROCESS, which an administrator has and the wallet's users do not.
    const admin = new URL(inject("mysqlServerUrl"));
    const { stdout } = await runDocBlockOk("docs/runbook.md#bare-host-checks", {
      env: {
        GATEWAY_URL: `http://127.0.0.1:${gateway.port}`,
        WORKER_METRICS_URL: `http://127.0.0.1:${worker.metricsPort}`,
        OPERATOR_API: `http://127.0.0.1:${api.port}`,
        REDIS_URL: inject("redisUrl"),
        REDIS_PREFIX: system.prefix,
        DATABASE_URL: system.ledger.url,
        MYSQL_HOST: admin.hostname,
        MYSQL_PORT: admin.port || "3306",
        MYSQL_USER: decodeURIComponent(admin.username),
        MYSQL_PWD: decodeURIComponent(admin.password),
        WALLET_DATABASE: database.pathname.slice(1),
      },
    });
    const lines = stdout.split("\n");
    // Three readiness answers, each JSON that says ready.
    const ready = lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { status: string });
    expect(ready.map((answer) => answer.status)).toEqual(["ready", "ready", "ready"]);
    // HGETALL: the worker's id, then its heartbeat in Redis milliseconds.
    const beat = lines.findIndex((line) => /^\d{13}$/.test(line));
    expect(beat).toBeGreaterThan(0);
    // LLEN of the wait list, then the queue's concurrency: 1.
    expect(lines.slice(beat + 1, beat + 3)).toEqual(["0", "1"]);
    expect(stdout).toMatch(/used_memory_human:/);
    expect(stdout).toMatch(/^1\n1$/m);
    expect(stdout).toMatch(/ledger ok/);
  });
});
