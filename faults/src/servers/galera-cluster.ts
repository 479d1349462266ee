import { execFile } from "node:child_process";
import { chmod, mkdir } from "node:fs/promises";
import { promisify } from "node:util";
import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import type { Database } from "../harness/fault-system.ts";
import { asRoot, MariaDbServer } from "./mariadb-server.ts";

const run = promisify(execFile);

/** Debian's `galera-4`: the wsrep provider every node loads. */
const provider = "/usr/lib/galera/libgalera_smm.so";

/** One node's ports besides its SQL port: group communication, incremental and full state transfer. */
interface NodePorts {
  gcomm: number;
  ist: number;
  sst: number;
}

/**
 * What Galera requires of every node, and what the wallet's schema is held to here:
 * - ROW binary log format and interleaved auto-increment locks (Galera's two hard requirements);
 * - REQUIRED_PRIMARY_KEY and STRICT_REPLICATION: a table without a primary key, or not InnoDB, is
 *   refused instead of being replicated badly, so the migrations prove the schema fits;
 * - rsync state transfer for a joiner (the simplest: rsync's daemon on the joiner, no extra user);
 * - small buffers and write-set cache: three servers share a 2-core machine with the whole system.
 * Everything else is Galera's defaults, the failure detector's included (evs.suspect_timeout 5 s):
 * the seconds without service measured here are those of a default cluster.
 */
function galeraArgs(index: number, own: NodePorts, all: NodePorts[]): string[] {
  const members = all.map((ports) => `127.0.0.1:${ports.gcomm}`).join(",");
  return [
    "--wsrep-on=ON",
    `--wsrep-provider=${provider}`,
    "--wsrep-cluster-name=wallet-faults",
    `--wsrep-node-name=galera${index + 1}`,
    `--wsrep-node-address=127.0.0.1:${own.gcomm}`,
    `--wsrep-cluster-address=gcomm://${members}`,
    `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${own.gcomm};ist.recv_addr=127.0.0.1:${own.ist};gcache.size=64M`,
    `--wsrep-sst-receive-address=127.0.0.1:${own.sst}`,
    "--wsrep-sst-method=rsync",
    "--wsrep-mode=REQUIRED_PRIMARY_KEY,STRICT_REPLICATION",
    "--binlog-format=ROW",
    "--innodb-autoinc-lock-mode=2",
    "--innodb-buffer-pool-size=64M",
  ];
}

/**
 * A three-node MariaDB Galera cluster of the suite's own: free ports, data under the test's
 * temporary folder, each node killed with the test process (`ServerProcess`). The first node
 * bootstraps the cluster; the other two join it and receive its data by state transfer (SST).
 * `primary` is the node the wallet writes through (single-writer, as behind MaxScale's readwritesplit
 * or an HAProxy with one active backend); a failover moves the wallet with `FaultSystem.moveDatabase`.
 */
export class GaleraCluster implements Database {
  private readonly killed = new Set<MariaDbServer>();

  private constructor(
    readonly nodes: MariaDbServer[],
    public primary: MariaDbServer,
    /** Each node's folder (its data in `<dir>/mariadb`). */
    private readonly dirs: string[],
  ) {}

  /**
   * `syncWait`: `wsrep_sync_wait` on every node, for every user (1: each read first waits until the
   * node has applied everything the cluster ordered before it), as two written nodes require
   * (docs/databases.md); the default cluster's 0 otherwise. Global, not the runtime user's only:
   * MariaDB has no per-user session default, and `init_connect` would spare the admin users.
   */
  static async start(dir: string, options: { syncWait?: number } = {}): Promise<GaleraCluster> {
    const ports: NodePorts[] = [];
    for (let index = 0; index < 3; index++)
      ports.push({ gcomm: await freePort(), ist: await freePort(), sst: await freePort() });
    const syncWait = options.syncWait === undefined ? [] : [`--wsrep-sync-wait=${options.syncWait}`];
    const args = (index: number) => [...galeraArgs(index, ports[index] as NodePorts, ports), ...syncWait];
    const first = await MariaDbServer.start(`${dir}/galera1`, {
      extraArgs: args(0),
      firstStartArgs: ["--wsrep-new-cluster"],
    });
    const nodes = [first];
    // One joiner at a time: a donor serves one state transfer at once, and the machine has 2 cores.
    for (const index of [1, 2]) nodes.push(await startJoiner(dir, `${dir}/galera${index + 1}`, args(index)));
    const cluster = new GaleraCluster(
      nodes,
      first,
      [1, 2, 3].map((index) => `${dir}/galera${index}`),
    );
    for (const node of nodes) await cluster.waitUntil(node, (status) => status.wsrep_cluster_size === "3");
    return cluster;
  }

  /** The nodes not killed, other than `node`. */
  others(node: MariaDbServer): MariaDbServer[] {
    return this.nodes.filter((other) => other !== node && !this.killed.has(other));
  }

  /** A node's `wsrep_%` status: cluster size and status, local state, certification counters. */
  status(node: MariaDbServer): Promise<Record<string, string>> {
    return asRoot(node, async (connection) => {
      const [rows] = await connection.query("SHOW GLOBAL STATUS LIKE 'wsrep_%'");
      return Object.fromEntries(
        (rows as Array<{ Variable_name: string; Value: string }>).map((row) => [
          row.Variable_name.toLowerCase(),
          row.Value,
        ]),
      );
    });
  }

  /**
   * Resolves once `node` is synced in the primary component and `check` holds on its status; the
   * status it last read.
   */
  async waitUntil(
    node: MariaDbServer,
    check: (status: Record<string, string>) => boolean,
    timeoutMs = 60_000,
  ): Promise<Record<string, string>> {
    let last: Record<string, string> = {};
    await until(
      "Galera node",
      async () => {
        last = await this.status(node);
        const ready = last.wsrep_cluster_status === "Primary" && last.wsrep_local_state_comment === "Synced";
        if (!ready || !check(last))
          throw new Error(
            `${last.wsrep_cluster_status}, ${last.wsrep_local_state_comment}, size ${last.wsrep_cluster_size}`,
          );
      },
      timeoutMs,
    );
    return last;
  }

  /**
   * A node killed earlier (SIGKILL, not through `kill`) started again on its data: it rejoins the
   * cluster and is synced when this resolves. Started by hand, not by mysqld_safe or systemd, it skips
   * their `--wsrep-recover` pass: its position is unknown (-1), so it gets a full state transfer
   * (rsync SST) rather than IST. Under root, rsync's daemon writes as `nobody`: the folder is given
   * to it first, as to a joiner at start.
   */
  async rejoin(node: MariaDbServer, timeoutMs = 120_000): Promise<void> {
    const dir = this.dirs[this.nodes.indexOf(node)];
    if (dir && process.getuid?.() === 0) await run("chown", ["-R", "nobody:", `${dir}/mariadb`]);
    await node.restart();
    await this.waitUntil(
      node,
      (status) => status.wsrep_cluster_size === String(this.nodes.length),
      timeoutMs,
    );
  }

  /** SIGKILL: the node dies with whatever it had in flight, as a crashed host would. */
  kill(node: MariaDbServer): Promise<void> {
    this.killed.add(node);
    return node.signal("SIGKILL");
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
  }
}

/**
 * A node that joins the running cluster. Its data folder is left empty: all of it, users included,
 * comes from the donor by SST, so it is started as `restored` (neither installed nor given users).
 * When the suite runs as root, rsync's daemon (the joiner's end of the transfer) drops to `nobody`,
 * so that user is given the empty folder and a way through the test's private temporary folder.
 */
async function startJoiner(testDir: string, dir: string, args: string[]): Promise<MariaDbServer> {
  await mkdir(`${dir}/mariadb`, { recursive: true });
  if (process.getuid?.() === 0) {
    await chmod(testDir, 0o711);
    await run("chown", ["nobody:", `${dir}/mariadb`]);
  }
  return MariaDbServer.start(dir, { extraArgs: args, restored: true });
}
