import { until } from "@wallet/system-tests/harness/processes/readiness";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";
import { asRoot } from "../../servers/mariadb-server.ts";

/** Every table of `database` on one node: its row count and `CHECKSUM TABLE` (a digest of every row). */
export function ledgerDigest(node: MariaDbServer, database: string): Promise<Record<string, string>> {
  return asRoot(node, async (connection) => {
    const [tables] = await connection.query(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
      [database],
    );
    const digest: Record<string, string> = {};
    for (const { name } of tables as Array<{ name: string }>) {
      const [counted] = await connection.query(`SELECT COUNT(*) AS n FROM \`${database}\`.\`${name}\``);
      const [summed] = await connection.query(`CHECKSUM TABLE \`${database}\`.\`${name}\``);
      const rows = (counted as Array<{ n: number }>)[0]?.n;
      const checksum = (summed as Array<{ Checksum: string | null }>)[0]?.Checksum;
      digest[name] = `${rows} rows, checksum ${checksum}`;
    }
    return digest;
  });
}

/**
 * Each node's digest of `database`, read until they are all equal or `timeoutMs` has passed (a node
 * applies others' commits asynchronously after certification: they converge within moments once the
 * load has stopped). The caller compares them, for a readable difference when they never converged.
 */
export async function digestsOnEachNode(
  nodes: MariaDbServer[],
  database: string,
  timeoutMs = 15_000,
): Promise<Array<Record<string, string>>> {
  let digests: Array<Record<string, string>> = [];
  await until(
    "the nodes' ledgers equal",
    async () => {
      digests = await Promise.all(nodes.map((node) => ledgerDigest(node, database)));
      const first = JSON.stringify(digests[0]);
      if (digests.some((digest) => JSON.stringify(digest) !== first)) throw new Error("they differ");
    },
    timeoutMs,
  ).catch(() => {});
  return digests;
}
