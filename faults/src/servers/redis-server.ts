import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import { ServerProcess } from "@wallet/system-tests/harness/processes/server-process";
import { redisCommand } from "./redis-command.ts";

/**
 * A Redis server of the suite's own port and folder, keeping nothing on disk like the machine's:
 * a restart after SIGKILL comes back empty, which is the worst case the system must survive.
 */
export class RedisServer {
  private constructor(
    private readonly process: ServerProcess,
    readonly port: number,
  ) {}

  static async start(dir: string): Promise<RedisServer> {
    const port = await freePort();
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    const server = new RedisServer(
      new ServerProcess("redis", "redis-server", [...args, "--dir", dir], `${dir}/redis.log`),
      port,
    );
    await server.restart();
    return server;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  url(port = this.port): string {
    return `redis://127.0.0.1:${port}`;
  }

  /** Starts it (again, empty, on the same port) and waits for PONG. */
  async restart(): Promise<void> {
    this.process.launch();
    await until("Redis", () => redisCommand(this.port, "PING"), 15_000);
  }

  signal(signal: NodeJS.Signals): Promise<void> {
    return this.process.signal(signal);
  }

  stop(): Promise<void> {
    return this.process.signal("SIGKILL");
  }
}
