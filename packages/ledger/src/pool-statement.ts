import type { PoolConnection } from "mysql2/promise";
import { mysqlErrno, readOnlyErrnos } from "./mysql-errors.ts";
import type { Run } from "./traced-pool.ts";

/**
 * A statement on a pool itself (`pool.query`, `pool.execute`) sent on a connection that `acquire`
 * hands out, as the fence and the session gate need: mysql2's own pool.query would take whatever
 * connection its queue hands over, past either. The connection is released after, or destroyed when
 * the server answered read-only, as mysql2's pool.query does: it is not handed out again.
 */
export function onAcquiredConnection(
  acquire: () => Promise<PoolConnection>,
  send: (connection: PoolConnection) => Run,
): Run {
  return async (statement, ...rest) => {
    const connection = await acquire();
    let healthy = true;
    try {
      return await send(connection)(statement, ...rest);
    } catch (error) {
      healthy = !readOnlyErrnos.has(mysqlErrno(error) ?? 0);
      throw error;
    } finally {
      if (healthy) connection.release();
      else connection.destroy();
    }
  };
}
