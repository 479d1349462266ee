import { latency } from "../../stats.ts";
import type { SystemA } from "../context.ts";
import { meteredRequests, type OperatorRequest, pick } from "./operator-requests.ts";

/**
 * Whether the queries that read the outbox (the round status read, the backlog query) slow down as it
 * grows: time them, add 200,000 more (applied) rows, time them again, and delete the rows so later
 * phases see the outbox as it was. The study found both scanning the whole table (docs/scaling.md,
 * "Outbox growth"); since issue 17 they read indexes, which this phase keeps checking.
 */
export async function outboxGrowth(
  a: SystemA,
  operatorUrl: string,
  closedRounds: Array<{ roundId: string }>,
): Promise<Record<string, unknown>> {
  const { db, meter } = a;
  const outboxRows = async () => {
    const [[row]] = (await db.execute("SELECT COUNT(*) AS n FROM outbox")) as unknown as [
      Array<{ n: number | string }>,
    ];
    return Number(row?.n ?? 0);
  };
  const growth: Record<string, unknown> = { rowsBefore: await outboxRows() };
  const roundRead: OperatorRequest = (i) => ({
    method: "GET",
    path: `/v1/rounds/${pick(closedRounds, i).roundId}`,
  });
  const timeRoundReads = async (label: string) => {
    const { times, window } = await meteredRequests(meter, operatorUrl, roundRead, 50);
    growth[label] = {
      latency: latency(times),
      rowsReadPerRequest: window.mysql.Rows_read,
      mariadbCpuMsPerRequest: window.cpuMs.mariadb,
    };
  };
  const timeBacklogQuery = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await db.execute("SELECT COUNT(*) AS pending FROM outbox WHERE applied_at IS NULL");
      times.push(performance.now() - started);
    }
    growth[label] = latency(times);
  };
  await timeRoundReads("roundReadBefore");
  await timeBacklogQuery("backlogQueryBefore");
  // seq_1_to_200000 is MariaDB's sequence engine: 200,000 rows without a loop.
  await db.execute(
    `INSERT INTO outbox (tenant_id, topic, event_id, payload, published_at, applied_at)
     SELECT 1, 'loyalty', CONCAT('synthetic:', seq), '{}', CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3)
     FROM seq_1_to_200000`,
  );
  growth.rowsAfter = await outboxRows();
  await timeRoundReads("roundReadAfter");
  await timeBacklogQuery("backlogQueryAfter");
  await db.execute("DELETE FROM outbox WHERE event_id LIKE 'synthetic:%'");
  return growth;
}
