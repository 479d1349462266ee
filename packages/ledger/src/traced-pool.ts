import { inSpan, isTracing, SpanKind } from "@wallet/telemetry/spans";
import type { Pool, PoolConnection } from "mysql2/promise";

type Statement = string | { sql?: unknown };
type Run = (statement: Statement, ...rest: unknown[]) => Promise<unknown>;

/**
 * A span per MySQL statement, children of whatever span is active (a ledger job, a side effect).
 * Statements outside any traced work (the relay's polling, heartbeats) are not traced: they would
 * be a root trace every 200 ms. `db.query.text` is the parameterized SQL: values never reach a span.
 */
export function traceStatements(pool: Pool): Pool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === "query" || property === "execute") return traced(target, property);
      if (property === "getConnection") {
        return async () => {
          const connection = await target.getConnection();
          return new Proxy(connection, {
            get(inner, name, innerReceiver) {
              if (name === "query" || name === "execute") return traced(inner, name);
              const value = Reflect.get(inner, name, innerReceiver);
              return typeof value === "function" ? value.bind(inner) : value;
            },
          }) satisfies PoolConnection;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function traced(target: Pool | PoolConnection, method: "query" | "execute"): Run {
  const original = (target[method] as Run).bind(target);
  return (statement, ...rest) => {
    if (!isTracing()) return original(statement, ...rest);
    const text = typeof statement === "string" ? statement : String(statement.sql ?? "");
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
    return inSpan(
      `mysql ${operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { "db.system.name": "mysql", "db.operation.name": operation, "db.query.text": text },
      },
      () => original(statement, ...rest),
    );
  };
}
