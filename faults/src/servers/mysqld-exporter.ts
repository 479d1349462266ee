import { chmod, writeFile } from "node:fs/promises";
import { mysqldExporterCollectorFlags, mysqldExporterGrant } from "@wallet/infra/mysqld-exporter";
import { freePort, until } from "@wallet/system-tests/harness/processes/readiness";
import { ServerProcess } from "@wallet/system-tests/harness/processes/server-process";
import type mysql from "mysql2/promise";
import type { MariaDbServer } from "./mariadb-server.ts";

/** The exporter's own user, as docs/databases.md has a DBA make it: one privilege, three connections. */
export const exporterUser = { name: "exporter", password: "faults-exporter-3b9f" };

/**
 * Makes the exporter's user on a server, exactly as docs/databases.md grants it on MariaDB 10.11
 * (REPLICA MONITOR, for SHOW SLAVE STATUS; nothing else). Made on a primary, it reaches its replicas
 * by replication.
 */
export async function createExporterUser(root: mysql.Connection): Promise<void> {
  const { name, password } = exporterUser;
  await root.query(`CREATE USER '${name}'@'%' IDENTIFIED BY '${password}' WITH MAX_USER_CONNECTIONS 3`);
  await root.query(`GRANT ${mysqldExporterGrant.mariadb} ON *.* TO '${name}'@'%'`);
}

/**
 * Debian's mysqld_exporter (`prometheus-mysqld-exporter`, 0.14) next to one MariaDB server of the
 * suite's own, as production runs one per database server: logged in as `exporterUser` (its
 * credentials in an option file, never on the command line), with the collectors
 * infra/src/mysqld-exporter.ts lists, serving /metrics on a loopback port of its own.
 */
export class MysqldExporter {
  private constructor(
    private readonly process: ServerProcess,
    readonly port: number,
  ) {}

  /** `name` tells the exporter's files apart in `dir` (`primary`, `replica`). */
  static async start(dir: string, name: string, server: MariaDbServer): Promise<MysqldExporter> {
    const optionFile = `${dir}/mysqld-exporter-${name}.cnf`;
    const { name: user, password } = exporterUser;
    await writeFile(
      optionFile,
      `[client]\nuser=${user}\npassword=${password}\nhost=127.0.0.1\nport=${server.port}\n`,
    );
    await chmod(optionFile, 0o600);
    const port = await freePort();
    const exporter = new MysqldExporter(
      new ServerProcess(
        `mysqld_exporter ${name}`,
        "prometheus-mysqld-exporter",
        [
          `--config.my-cnf=${optionFile}`,
          `--web.listen-address=127.0.0.1:${port}`,
          ...mysqldExporterCollectorFlags,
        ],
        `${dir}/mysqld-exporter-${name}.log`,
      ),
      port,
    );
    exporter.process.launch();
    // Up, and logged in: its user may have only just arrived on a replica by replication.
    await until(
      `mysqld_exporter ${name}`,
      async () => {
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        if (!/^mysql_up 1$/m.test(metrics)) throw new Error("mysql_up is not 1");
      },
      30_000,
    );
    return exporter;
  }

  stop(): Promise<void> {
    return this.process.signal("SIGKILL");
  }
}
