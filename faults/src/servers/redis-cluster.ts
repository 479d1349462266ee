import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { promisify } from "node:util";
import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import { ServerProcess } from "@wallet/system-tests/harness/processes/server-process";
import { redisCommand } from "./redis-command.ts";

const run = promisify(execFile);

export interface ClusterMaster {
  port: number;
  /** The hash-slot ranges this master serves, inclusive. */
  slots: Array<[number, number]>;
}

/**
 * A local Redis Cluster of `masters` redis-server processes in cluster mode on loopback ports, no
 * replicas, nothing kept on disk: what the cluster test runs the system against. `redis-cli --cluster
 * create` splits the 16,384 slots evenly between the masters.
 */
export class RedisCluster {
  private constructor(
    private readonly servers: ServerProcess[],
    readonly ports: number[],
  ) {}

  static async start(dir: string, masters = 3): Promise<RedisCluster> {
    const ports: number[] = [];
    const servers: ServerProcess[] = [];
    for (let index = 0; index < masters; index++) {
      const port = await freePort();
      const nodeDir = `${dir}/redis-cluster-${port}`;
      await mkdir(nodeDir, { recursive: true });
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
      const cluster = ["--cluster-enabled", "yes", "--cluster-config-file", `${nodeDir}/nodes.conf`];
      const server = new ServerProcess(
        `redis-${port}`,
        "redis-server",
        [...args, ...cluster, "--dir", nodeDir],
        `${nodeDir}/redis.log`,
      );
      server.launch();
      servers.push(server);
      ports.push(port);
    }
    const cluster = new RedisCluster(servers, ports);
    for (const port of ports) await until(`redis ${port}`, () => cluster.command(port, "PING"), 15_000);
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    await until(
      "cluster state ok",
      async () => {
        for (const port of ports) {
          const info = String(await cluster.command(port, "CLUSTER", "INFO"));
          if (!info.includes("cluster_state:ok")) throw new Error(`node ${port}: ${info.split("\n")[0]}`);
        }
      },
      30_000,
    );
    return cluster;
  }

  /** `REDIS_CLUSTER_NODES` for the apps: every master as a seed. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(",");
  }

  /** Each master with the slots it serves, as `CLUSTER SLOTS` reports them. */
  async masters(): Promise<ClusterMaster[]> {
    const slots = (await this.command(this.ports[0] ?? 0, "CLUSTER", "SLOTS")) as Array<
      [number, number, [string, number, ...unknown[]]]
    >;
    return this.ports.map((port) => ({
      port,
      slots: slots.filter(([, , master]) => master[1] === port).map(([from, to]) => [from, to]),
    }));
  }

  /** The master that holds `key`. */
  async masterOf(key: string): Promise<number> {
    const slot = Number(await this.command(this.ports[0] ?? 0, "CLUSTER", "KEYSLOT", key));
    const owner = (await this.masters()).find((master) =>
      master.slots.some(([from, to]) => slot >= from && slot <= to),
    );
    if (!owner) throw new Error(`no master serves slot ${slot}`);
    return owner.port;
  }

  /** One command on one node (not cluster-routed). */
  command(port: number, name: string, ...args: string[]): Promise<unknown> {
    return redisCommand(port, name, ...args);
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.signal("SIGKILL")));
  }
}
