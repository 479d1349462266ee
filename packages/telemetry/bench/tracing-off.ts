/**
 * What the tracing instrumentation costs a callback when tracing is off: the same span calls a
 * callback makes (request, signature, publish, job, one check per statement), timed against an
 * empty loop. Prints numbers; run with `pnpm bench:tracing`. See docs/performance.md.
 */
import { context } from "@opentelemetry/api";
import { currentTraceparent, inSpan, isTracing, SpanKind, startSpan } from "../src/spans.ts";

const callbacks = 200_000;
const statementsPerCallback = 8;

async function instrumentedCallback(): Promise<void> {
  const server = startSpan("POST /withdraw", { kind: SpanKind.SERVER }, context.active());
  await inSpan("verify signature", {}, async () => undefined);
  await inSpan("ledger-1 publish", { kind: SpanKind.PRODUCER }, async () => currentTraceparent());
  await inSpan("ledger-1 process", { kind: SpanKind.CONSUMER }, async () => {
    for (let index = 0; index < statementsPerCallback; index++) isTracing();
  });
  server.end();
}

async function bareCallback(): Promise<void> {
  await (async () => undefined)();
  await (async () => undefined)();
  await (async () => {
    for (let index = 0; index < statementsPerCallback; index++);
  })();
}

async function time(run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let index = 0; index < callbacks; index++) await run();
  return Number(process.hrtime.bigint() - started) / callbacks; // ns per callback
}

await time(instrumentedCallback); // warm-up
await time(bareCallback);
const instrumented = await time(instrumentedCallback);
const bare = await time(bareCallback);
console.log(
  `tracing off, per callback: instrumented ${instrumented.toFixed(0)} ns, bare ${bare.toFixed(0)} ns`,
);
console.log(`added per callback: ${((instrumented - bare) / 1000).toFixed(2)} µs`);
