import net from "node:net";

// A TCP proxy placed between an app and MariaDB/Redis so a test can make the network slow, silent or
// broken without touching either end. Each accepted client socket gets its own upstream socket; the two
// form a "pair" with one lane per direction that applies the current latency and mode.

export type ProxyMode = "pass" | "blackhole";

/** Shared by the proxy and all its pairs so that a setter takes effect on existing connections at once. */
interface Settings {
  mode: ProxyMode;
  latencyMs: number;
  targetPort: number;
}

const HOST = "127.0.0.1";

/**
 * One direction of a pair. Chunks are released in FIFO order by a single timer, so changing the latency
 * (or timer jitter) can never reorder bytes: a chunk never overtakes the one queued before it.
 */
class Lane {
  dest: net.Socket | undefined;
  private readonly queue: { at: number; chunk: Buffer | null }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly settings: Settings) {}

  /** Queues a chunk, or the end of the stream (null), for delivery after the current latency. */
  push(chunk: Buffer | null): void {
    if (this.stopped) return;
    this.queue.push({ at: performance.now() + this.settings.latencyMs, chunk });
    // With a timer pending the new chunk is behind the head anyway; flushing now keeps zero latency synchronous.
    if (this.timer === undefined) this.flush();
  }

  /** Delivers what a blackhole held back (or what waited for the upstream to be dialled). */
  resume(): void {
    if (this.timer === undefined) this.flush();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }

  private readonly flush = (): void => {
    this.timer = undefined;
    // A partition loses no byte, TCP retransmits them: they are held, in order, and delivered on heal
    // (dropping them would desynchronise the MySQL and Redis protocols, which no real network does).
    if (this.stopped || this.settings.mode === "blackhole" || this.dest === undefined) return;
    const now = performance.now();
    for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
      if (head.at > now) {
        // Timers may fire a little early relative to performance.now(); re-arming keeps the delay a minimum.
        this.timer = setTimeout(this.flush, head.at - now);
        return;
      }
      this.queue.shift();
      this.deliver(head.chunk);
    }
  };

  private deliver(chunk: Buffer | null): void {
    const dest = this.dest;
    if (dest === undefined || dest.destroyed) return;
    if (chunk === null) {
      if (!dest.writableEnded) dest.end();
    } else {
      dest.write(chunk);
    }
  }
}

/** A client socket and (once connected) its upstream socket. */
class Pair {
  upstream: net.Socket | undefined;
  private readonly toUpstream: Lane;
  private readonly toClient: Lane;
  private clientClosed = false;
  private upstreamClosed = false;
  private finished = false;

  constructor(
    readonly client: net.Socket,
    private readonly settings: Settings,
    private readonly onFinished: (pair: Pair) => void,
  ) {
    this.toUpstream = new Lane(settings);
    this.toClient = new Lane(settings);
    this.toClient.dest = client;
    client.setNoDelay(true);
    client.on("data", (chunk: Buffer) => this.toUpstream.push(chunk));
    // Half-close is forwarded (the sockets allow half-open) so the server sees the client's FIN after its data.
    // A client that leaves before it was ever connected upstream has nothing to forward to.
    client.on("end", () => (this.upstream ? this.toUpstream.push(null) : this.destroy()));
    // ECONNRESET, EPIPE and the like: the connection is gone, so is the pair. Never rethrown.
    client.on("error", () => this.destroy());
    client.on("close", () => {
      this.clientClosed = true;
      this.toUpstream.push(null);
      this.finishIfClosed();
    });
  }

  connectUpstream(): void {
    const upstream = net.connect({ host: HOST, port: this.settings.targetPort, allowHalfOpen: true });
    this.upstream = upstream;
    this.toUpstream.dest = upstream;
    this.toUpstream.resume();
    upstream.setNoDelay(true);
    upstream.on("data", (chunk: Buffer) => this.toClient.push(chunk));
    upstream.on("end", () => this.toClient.push(null));
    // Includes ECONNREFUSED: closing the client makes a stopped server look stopped through the proxy too.
    upstream.on("error", () => this.destroy());
    upstream.on("close", () => {
      this.upstreamClosed = true;
      this.toClient.push(null);
      this.finishIfClosed();
    });
  }

  resume(): void {
    this.toUpstream.resume();
    this.toClient.resume();
  }

  /** Tears the pair down at once; `reset` makes the client see a TCP RST instead of a FIN. */
  destroy(reset = false): void {
    if (reset && !this.client.destroyed) this.client.resetAndDestroy();
    else this.client.destroy();
    this.upstream?.destroy();
    this.finish();
  }

  private finishIfClosed(): void {
    if (this.clientClosed && (this.upstream === undefined || this.upstreamClosed)) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.toUpstream.stop();
    this.toClient.stop();
    this.onFinished(this);
  }
}

export class FaultProxy {
  private readonly pairs = new Set<Pair>();
  private readonly settings: Settings;

  private constructor(
    private readonly server: net.Server,
    targetPort: number,
    /** The port it listens on. */
    readonly port: number,
  ) {
    this.settings = { mode: "pass", latencyMs: 0, targetPort };
    server.on("connection", (client) => {
      const pair = new Pair(client, this.settings, (p) => this.pairs.delete(p));
      this.pairs.add(pair);
      // While blackholed the client sees a connect and then silence; the upstream is dialled when the
      // blackhole ends, as a healed network would let the connection through.
      if (this.settings.mode === "pass") pair.connectUpstream();
    });
    // Accept failures (e.g. EMFILE) must not crash the test process; the listener keeps running.
    server.on("error", () => {});
  }

  /** Listens on 127.0.0.1:`listenPort` (0 = any free port) and forwards each connection to 127.0.0.1:targetPort. */
  static async start(targetPort: number, listenPort = 0): Promise<FaultProxy> {
    // allowHalfOpen: a client's FIN is forwarded upstream instead of closing the pair before replies arrive.
    const server = net.createServer({ allowHalfOpen: true });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(listenPort, HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new FaultProxy(server, targetPort, (server.address() as net.AddressInfo).port);
  }

  /** Adds this many ms of one-way delay to every chunk in both directions (0 = none). Byte order is preserved. */
  setLatency(ms: number): void {
    this.settings.latencyMs = Math.max(0, ms);
  }

  /**
   * "blackhole": a network partition. No byte is forwarded in either direction until mode goes back to
   * "pass"; bytes are held (as TCP's retransmissions would deliver them after the heal), connections stay
   * open, and new ones are accepted but not connected upstream until then.
   */
  setMode(mode: ProxyMode): void {
    this.settings.mode = mode;
    if (mode === "pass") {
      for (const pair of this.pairs) {
        if (pair.upstream === undefined) pair.connectUpstream();
        else pair.resume();
      }
    }
  }

  /** Destroys every open pair, with a TCP RST on the client side; the proxy keeps listening. Returns the count. */
  resetAll(): number {
    const pairs = [...this.pairs];
    for (const pair of pairs) pair.destroy(true);
    return pairs.length;
  }

  /** Changes the upstream port for new connections (e.g. a server restarted on another port). */
  retarget(targetPort: number): void {
    this.settings.targetPort = targetPort;
  }

  /** Number of connection pairs currently open. */
  get openConnections(): number {
    return this.pairs.size;
  }

  /** Stops listening and destroys every connection. */
  async close(): Promise<void> {
    for (const pair of [...this.pairs]) pair.destroy();
    // The callback's error only means "not listening", which is what close() wants anyway.
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
