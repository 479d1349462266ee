import { randomBytes } from "node:crypto";
import { once } from "node:events";
import net from "node:net";
import { freePort } from "@wallet/system-tests/harness/processes/readiness";
import { afterEach, describe, expect, it } from "vitest";
import { FaultProxy } from "./fault-proxy.ts";

// Everything runs against a local echo server, so the proxy's behaviour is checked without MariaDB or Redis.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function echoServer(port = 0): Promise<net.Server> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.pipe(socket);
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return server;
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

async function startProxy(targetPort: number): Promise<FaultProxy> {
  const proxy = await FaultProxy.start(targetPort);
  cleanups.push(() => proxy.close());
  return proxy;
}

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect({ host: "127.0.0.1", port });
  socket.on("error", () => {});
  cleanups.push(() => void socket.destroy());
  await once(socket, "connect");
  return socket;
}

/** Resolves with the first `length` bytes the socket receives, or rejects after `timeoutMs`. */
function read(socket: net.Socket, length: number, timeoutMs = 2_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= length) {
        done();
        resolve(Buffer.concat(chunks));
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out with ${received}/${length} bytes`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.off("data", onData);
    };
    socket.on("data", onData);
  });
}

async function roundTrip(socket: net.Socket, message: string): Promise<string> {
  socket.write(message);
  return (await read(socket, Buffer.byteLength(message))).toString();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("FaultProxy", () => {
  it("passes bytes through unchanged in both directions", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const client = await connect(proxy.port);
    const payload = randomBytes(256 * 1024);
    client.write(payload);
    expect((await read(client, payload.length)).equals(payload)).toBe(true);
    expect(proxy.openConnections).toBe(1);
  });

  it("adds the configured latency to each direction", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const client = await connect(proxy.port);
    await roundTrip(client, "warm-up");

    proxy.setLatency(100);
    const started = performance.now();
    expect(await roundTrip(client, "ping")).toBe("ping");
    // 100 ms on the way there and 100 ms on the way back; bounded from below only, CI may be slow.
    expect(performance.now() - started).toBeGreaterThanOrEqual(180);

    proxy.setLatency(0);
    const fast = performance.now();
    await roundTrip(client, "pong");
    expect(performance.now() - fast).toBeLessThan(100);
  });

  it("keeps byte order while latency changes under load", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const client = await connect(proxy.port);
    const parts = Array.from({ length: 200 }, (_, i) => `${i};`);
    proxy.setLatency(50);
    const echoed = read(client, parts.join("").length);
    for (const [i, part] of parts.entries()) {
      // Later chunks get a shorter delay than earlier ones; they must still not overtake them.
      if (i === 50) proxy.setLatency(5);
      if (i === 100) proxy.setLatency(0);
      if (i % 20 === 0) await sleep(2);
      client.write(part);
    }
    expect((await echoed).toString()).toBe(parts.join(""));
  });

  it("forwards a half-close after the delayed data, not before it", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const client = await connect(proxy.port);
    proxy.setLatency(50);
    const echoed = read(client, 4);
    const ended = once(client, "end");
    client.end("last");
    expect((await echoed).toString()).toBe("last");
    await ended;
    await expect.poll(() => proxy.openConnections).toBe(0);
  });

  it("blackhole holds traffic without closing, and pass delivers it in order", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const existing = await connect(proxy.port);
    expect(await roundTrip(existing, "before")).toBe("before");

    proxy.setMode("blackhole");
    existing.write("held");
    await expect(read(existing, 1, 300)).rejects.toThrow(/timed out/);
    // New connections are accepted, then silent.
    const during = await connect(proxy.port);
    during.write("early");
    await expect(read(during, 1, 300)).rejects.toThrow(/timed out/);
    expect(existing.destroyed || during.destroyed).toBe(false);

    // Listening before the heal: what was held arrives as soon as it ends.
    const heldEcho = read(existing, 4, 2_000);
    const earlyEcho = read(during, 5, 2_000);
    proxy.setMode("pass");
    expect((await heldEcho).toString()).toBe("held");
    expect((await earlyEcho).toString()).toBe("early");
    const after = await connect(proxy.port);
    expect(await roundTrip(after, "after")).toBe("after");
    // Both connections go on as if nothing happened: held, not dropped, as TCP retransmission would.
    expect(await roundTrip(existing, "again")).toBe("again");
    expect(await roundTrip(during, "healed")).toBe("healed");
    expect(proxy.openConnections).toBe(3);
  });

  it("resetAll sends the clients a TCP reset and keeps listening", async () => {
    const proxy = await startProxy(portOf(await echoServer()));
    const client = await connect(proxy.port);
    await roundTrip(client, "hello");
    const errored = once(client, "error");
    // Not events.once: it rejects when "error" fires first, which is exactly what should happen here.
    const closed = new Promise((resolve) => client.once("close", resolve));

    expect(proxy.resetAll()).toBe(1);
    expect(proxy.openConnections).toBe(0);
    const [error] = (await errored) as [NodeJS.ErrnoException];
    expect(error.code).toBe("ECONNRESET");
    await closed;

    const next = await connect(proxy.port);
    expect(await roundTrip(next, "still here")).toBe("still here");
  });

  it("closes clients while the upstream is down and recovers once it listens", async () => {
    const port = await freePort();
    const proxy = await startProxy(port);
    const refused = await connect(proxy.port);
    await once(refused, "close");
    await expect.poll(() => proxy.openConnections).toBe(0);

    await echoServer(port);
    const client = await connect(proxy.port);
    expect(await roundTrip(client, "back")).toBe("back");
  });

  it("retarget sends new connections to another upstream", async () => {
    const proxy = await startProxy(await freePort());
    proxy.retarget(portOf(await echoServer()));
    const client = await connect(proxy.port);
    expect(await roundTrip(client, "moved")).toBe("moved");
  });

  it("close stops listening and destroys open connections", async () => {
    const proxy = await FaultProxy.start(portOf(await echoServer()));
    const client = await connect(proxy.port);
    await roundTrip(client, "bye");
    const closed = once(client, "close");
    await proxy.close();
    await closed;
    expect(proxy.openConnections).toBe(0);
    const late = net.connect({ host: "127.0.0.1", port: proxy.port });
    const [error] = (await once(late, "error")) as [NodeJS.ErrnoException];
    expect(error.code).toBe("ECONNREFUSED");
  });
});
