import { bounded } from "@wallet/telemetry/bounded-read";
import mysql, { type Connection } from "mysql2/promise";
import type { Fence } from "./fence.ts";

/** read_only is ON under super_read_only too (MySQL), and on a MariaDB replica. */
export const READ_ONLY_QUERY = "SELECT @@global.read_only AS read_only";

/** Whether a row of `READ_ONLY_QUERY` says read-only. */
export const saysReadOnly = (rows: unknown) =>
  Number((rows as Array<{ read_only: unknown }>)[0]?.read_only) === 1;

export interface RoleWatchOptions {
  url: string;
  /** How often the role is read (`DB_ROLE_CHECK_MS`). */
  everyMs: number;
  fence: Fence;
  /** Told once when the fence goes up (true), once when it comes down (false). */
  onChange?: (fenced: boolean) => void;
}

/**
 * Reads the server's role every `everyMs` on a connection of its own, never one of the pools': under
 * load they have callers queued, and a check must not wait behind them. Read-only (a replica, a demoted
 * primary, a server a failover tool fences): the fence goes up (`fence.ts`) and the connection is
 * closed, so each later check opens one to whatever server the address names by then; the fence comes
 * down when such a connection reads writable. A check that cannot tell (no connection, an error, no
 * answer within `timeoutMs`) changes nothing: a slow or unreachable server is not a read-only one (its
 * statements fail or wait on their own), and that check's connection is dropped, so one that hangs
 * never stops the next. At most one check at a time; the timer keeps no process alive; `stop()` ends it.
 */
export class RoleWatch {
  private connection: Promise<Connection> | undefined;
  private checking = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;
  private readonly timeoutMs: number;

  constructor(private readonly options: RoleWatchOptions) {
    this.timeoutMs = Math.max(1_000, 4 * options.everyMs);
    options.fence.recheck = () => this.checkSoon();
    this.timer = setInterval(() => void this.check(), options.everyMs);
    this.timer.unref();
    void this.check();
  }

  /** A statement met a read-only error: check now, unless a check started within the last quarter period. */
  checkSoon(): void {
    if (performance.now() - this.lastStart >= this.options.everyMs / 4) void this.check();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.drop(true);
  }

  private async check(): Promise<void> {
    if (this.checking || this.stopped) return;
    this.checking = true;
    this.lastStart = performance.now();
    const { fence, onChange } = this.options;
    try {
      const readOnly = await bounded(this.readOnly(), this.timeoutMs, "the database role check");
      if (this.stopped) return;
      if (readOnly) {
        this.drop(true);
        if (fence.raise()) onChange?.(true);
      } else if (fence.lower()) onChange?.(false);
    } catch {
      this.drop(false);
    } finally {
      this.checking = false;
    }
  }

  private async readOnly(): Promise<boolean> {
    this.connection ??= this.open();
    const [rows] = await (await this.connection).query(READ_ONLY_QUERY);
    return saysReadOnly(rows);
  }

  private open(): Promise<Connection> {
    const opening = mysql.createConnection({
      uri: this.options.url,
      connectTimeout: this.timeoutMs,
      enableKeepAlive: true,
    });
    // Closed by the server while idle: the next check fails on it and opens another.
    opening.then((connection) => connection.on("error", () => {})).catch(() => {});
    return opening;
  }

  /** Closes the connection (politely when it is sound); the next check opens a new one. */
  private drop(sound: boolean): void {
    const connection = this.connection;
    this.connection = undefined;
    connection?.then((open) => (sound ? open.end() : open.destroy())).catch(() => {});
  }
}
