import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { isDatabaseFenced } from "@wallet/ledger/mysql-errors";
import { eventually } from "@wallet/system-tests/harness/system";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asRoot, dbUser, MariaDbServer } from "../servers/mariadb-server.ts";

// `createDatabase`'s `writableOnly` (issue 39) on a MariaDB server of the file's own: only there may a
// test set read_only, which `pnpm test`'s shared server must never see.
let dir = "";
let server: MariaDbServer;
const opened: Database[] = [];
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wallet-fence-`);
  server = await MariaDbServer.start(dir);
}, 120_000);
afterEach(async () => {
  await setReadOnly(false);
  await Promise.all(opened.splice(0).map((database) => database.close().catch(() => {})));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sessionsWithId = (id: number) =>
  asRoot(server, async (connection) => {
    const [rows] = await connection.query(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID = ?",
      [id],
    );
    return Number((rows as Array<{ n: number }>)[0]?.n);
  });
const setReadOnly = (on: boolean) =>
  asRoot(server, (connection) => connection.query(`SET GLOBAL read_only = ${on ? "ON" : "OFF"}`));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A writableOnly Database checking every 50 ms, with every fence change it reported. */
function open(port = server.port) {
  const changes: boolean[] = [];
  const database = createDatabase({
    url: server.url("", port),
    poolSize: 4,
    batchPoolSize: 2,
    writableOnly: true,
    roleCheckMs: 50,
    onFenceChange: (fenced) => changes.push(fenced),
  });
  opened.push(database);
  return { database, changes };
}

const connectionId = async ({ db }: Database) => {
  const [rows] = (await db.execute(sql`SELECT CONNECTION_ID() AS id, SLEEP(0.05) AS slept`)) as unknown as [
    Array<{ id: number }>,
  ];
  return Number(rows[0]?.id);
};
/** The ids of `count` connections of the drizzle pool taken side by side, and of one of the batch pool. */
const connectionIds = async (database: Database, count: number) => {
  const [rows] = (await database.batch.query("SELECT CONNECTION_ID() AS id")) as unknown as [
    Array<{ id: number }>,
  ];
  return [
    ...(await Promise.all(Array.from({ length: count }, () => connectionId(database)))),
    Number(rows[0]?.id),
  ];
};
const refused = async (statement: Promise<unknown>) => {
  try {
    await statement;
    return "served";
  } catch (error) {
    return isDatabaseFenced(error) ? "fenced" : `failed otherwise: ${String(error)}`;
  }
};
const untilFenced = (database: Database) =>
  eventually(
    async () => ((await refused(connectionId(database))) === "fenced" ? true : undefined),
    5_000,
    "fenced",
  );
const untilServed = (database: Database) =>
  eventually(
    async () => ((await refused(connectionId(database))) === "served" ? true : undefined),
    5_000,
    "served",
  );

describe("a Database that serves only from a writable server (writableOnly)", () => {
  it("refuses, unsent, every statement of both pools once its warm pools' server is set read-only, and serves again on new connections once it is writable", async () => {
    const { database, changes } = open();
    const before = await connectionIds(database, 4);
    const held = await database.batch.getConnection();
    const cutShort = await database.batch.getConnection();
    const [opened] = (await cutShort.query("START TRANSACTION; SELECT CONNECTION_ID() AS id")) as unknown as [
      [unknown, Array<{ id: number }>],
    ];
    const cutShortId = Number(opened[1][0]?.id);
    await setReadOnly(true);
    await untilFenced(database);
    // A transaction the fence cut short: its ROLLBACK is refused, and its connection is closed on
    // release, never pooled with the transaction open.
    expect(await refused(cutShort.query("ROLLBACK"))).toBe("fenced");
    cutShort.release();
    await eventually(
      async () => ((await sessionsWithId(cutShortId)) === 0 ? true : undefined),
      5_000,
      "closed",
    );
    expect(database.fenced()).toBe(true);
    expect(changes).toEqual([true]);
    // Reads too, on either pool, through a connection or a transaction, or one borrowed before.
    expect(
      await Promise.all([
        refused(database.db.execute(sql`SELECT 1`)),
        refused(database.db.transaction(async (tx) => tx.execute(sql`SELECT 1`))),
        refused(database.batch.query("SELECT 1; SELECT 2")),
        refused(database.batch.getConnection()),
        refused(held.query("SELECT 1")),
      ]),
    ).toEqual(["fenced", "fenced", "fenced", "fenced", "fenced"]);

    await setReadOnly(false);
    await untilServed(database);
    expect(database.fenced()).toBe(false);
    expect(changes).toEqual([true, false]);
    // What was open before the fence is never used again: borrowed, it refuses; idle, it is replaced.
    expect(await refused(held.query("SELECT 1"))).toBe("fenced");
    held.release();
    const after = await connectionIds(database, 4);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
  });

  it("is not fenced by a server that is slow or silent, and a check that never answers does not stop the next: read-only is still seen", async () => {
    const forwarder = await freezableForwarder(server.port);
    try {
      const { database, changes } = open(forwarder.port);
      await connectionIds(database, 2);
      // Every connection open so far hangs for good: the role watch's, the pools'.
      forwarder.freezeAll();
      await pause(1_500);
      expect(changes).toEqual([]);
      await setReadOnly(true);
      // Only a check on a new connection can see it: the hung one was given up after its timeout (1 s).
      await eventually(async () => (database.fenced() ? true : undefined), 5_000, "fenced");
      await setReadOnly(false);
      await untilServed(database);
      expect(changes).toEqual([true, false]);
    } finally {
      await forwarder.close();
    }
  });

  it("without writableOnly (the command-line tools) opens no connection of its own and reads a read-only server", async () => {
    const sessions = () =>
      asRoot(server, async (connection) => {
        const [rows] = await connection.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = ?",
          [dbUser.name],
        );
        return Number((rows as Array<{ n: number }>)[0]?.n);
      });
    // The earlier tests' connections gone (closed after each test).
    await eventually(async () => ((await sessions()) === 0 ? true : undefined), 5_000, "no session");
    await setReadOnly(true);
    const tool = createDatabase({ url: server.url(""), poolSize: 1 });
    opened.push(tool);
    await pause(300);
    expect(await sessions()).toBe(0);
    expect(await refused(connectionId(tool))).toBe("served");
    expect(tool.fenced()).toBe(false);
    // The apps' Database opens one before any query: its role watch's, which close() ends.
    await setReadOnly(false);
    const { database } = open();
    await eventually(async () => ((await sessions()) === 2 ? true : undefined), 5_000, "the watch");
    await database.close();
    await tool.close();
    await eventually(async () => ((await sessions()) === 0 ? true : undefined), 5_000, "all closed");
  });
});

/**
 * A TCP forwarder to `port` whose open connections can be frozen for good: bytes dropped both ways,
 * sockets left open, as a server that stopped answering them. Connections made afterwards pass.
 */
async function freezableForwarder(port: number) {
  const links = new Set<{ frozen: boolean; close: () => void }>();
  const listener = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    const link = {
      frozen: false,
      close: () => {
        client.destroy();
        upstream.destroy();
        links.delete(link);
      },
    };
    links.add(link);
    client.on("data", (chunk) => link.frozen || upstream.write(chunk));
    upstream.on("data", (chunk) => link.frozen || client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on("close", link.close);
      socket.on("error", link.close);
    }
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return {
    port: (listener.address() as net.AddressInfo).port,
    freezeAll: () => {
      for (const link of links) link.frozen = true;
    },
    close: async () => {
      for (const link of [...links]) link.close();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}
