import { inSpan, isTracing, SpanKind } from "@wallet/telemetry/spans";
import type { Pool, PoolConnection } from "mysql2/promise";

type Statement = string | { sql?: unknown };
export type Run = (statement: Statement, ...rest: unknown[]) => Promise<unknown>;

/**
 * The pool as drizzle is given it. drizzle sends a `typeCast` of its own with each query (for dates),
 * which replaces the pool's: `withIdsAsText` puts ours in front of it, so ids (VARBINARY) read as
 * text through drizzle too. With `trace`, a span per MySQL statement, children of whatever span is
 * active (a ledger job, a side effect); statements outside any traced work (the relay's polling,
 * heartbeats) are not traced: they would be a root trace every 200 ms. `db.query.text` is the
 * parameterized SQL: values never reach a span.
 */
export function drizzleClient(pool: Pool, trace: boolean): Pool {
  return trace ? traceStatements(pool) : ownTypeCast(pool);
}

/**
 * Every `query`/`execute` of the pool and of its connections goes through `wrap`; `getConnection`
 * hands out what `acquire` gives (the pool's own by default).
 */
export function wrapStatements(
  pool: Pool,
  wrap: (target: Pool | PoolConnection, method: "query" | "execute") => Run,
  acquire: () => Promise<PoolConnection> = () => pool.getConnection(),
): Pool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === "query" || property === "execute") return wrap(target, property);
      if (property === "getConnection") {
        return async () => {
          const connection = await acquire();
          return new Proxy(connection, {
            get(inner, name, innerReceiver) {
              if (name === "query" || name === "execute") return wrap(inner, name);
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

const ownTypeCast = (pool: Pool) =>
  wrapStatements(pool, (target, method) => withIdsAsText((target[method] as Run).bind(target)));

type Field = { type: string; string: (encoding?: string) => string | null };
type TypeCast = (field: Field, next: () => unknown) => unknown;

/** A statement's own `typeCast` with the ids-as-text rule of `db.ts` in front of it. */
function withIdsAsText(run: Run): Run {
  return (statement, ...rest) => {
    if (typeof statement === "object" && statement !== null && "typeCast" in statement) {
      const theirs = (statement as { typeCast?: unknown }).typeCast;
      if (typeof theirs === "function") {
        const typeCast: TypeCast = (field, next) =>
          isText(field) ? field.string("utf8") : (theirs as TypeCast)(field, next);
        return run({ ...(statement as object), typeCast } as Statement, ...rest);
      }
    }
    return run(statement, ...rest);
  };
}

/** CHAR, VARCHAR, BINARY and VARBINARY values: read as UTF-8 text (`db.ts`). */
export const isText = (field: { type: string }) => field.type === "VAR_STRING" || field.type === "STRING";

const traceStatements = (pool: Pool) => wrapStatements(pool, traced);

function traced(target: Pool | PoolConnection, method: "query" | "execute"): Run {
  const original = withIdsAsText((target[method] as Run).bind(target));
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
