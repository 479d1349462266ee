import {
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

export { SpanKind } from "@opentelemetry/api";
export type { Context, Span };

/**
 * The API side of tracing, safe to import from any package: with no SDK started (tracing off)
 * every call here is a no-op on a non-recording span.
 */
const tracer = trace.getTracer("wallet-gateway");

/**
 * Runs `work` inside a new active span (a child of `parent`, or of the active context), marks it
 * failed if `work` throws, and always ends it.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions & { parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { parent, ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Starts a span the caller ends (for spans that outlive one function, like an HTTP request). */
export function startSpan(name: string, options: SpanOptions, parent: Context): Span {
  return tracer.startSpan(name, options, parent);
}

/** Marks a span failed without an exception (e.g. a 5xx answer). */
export function markFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The W3C `traceparent` of the active span, to carry across a queue; undefined when not tracing. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a carried `traceparent` (or incoming HTTP headers) continues. */
export function contextFrom(carrier: Record<string, unknown> | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (headers, key) => {
      const value = headers[key];
      return typeof value === "string" || Array.isArray(value) ? (value as string | string[]) : undefined;
    },
    keys: (headers) => Object.keys(headers),
  });
}

/** A span link to the trace a `traceparent` names: how a side effect points back at its round's close. */
export function linksTo(traceparents: Array<string | undefined>): Link[] {
  const links: Link[] = [];
  for (const traceparent of traceparents) {
    if (!traceparent) continue;
    const spanContext = trace.getSpanContext(contextFrom({ traceparent }));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

/** Runs `work` with the span a carried `traceparent` names active (no span of its own; as is when none). */
export function withTraceparent<T>(traceparent: string | undefined, work: () => T): T {
  if (!traceparent) return work();
  return context.with(contextFrom({ traceparent }), work);
}

/** Runs `work` with `span` active (for code resumed from an event whose async context was lost). */
export function withSpanActive<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}

/** True inside a span that is being recorded: cheap instrumentation checks this before doing work. */
export function isTracing(): boolean {
  return trace.getSpan(context.active())?.isRecording() ?? false;
}

/** The messaging attributes of a queue span (OpenTelemetry semantic conventions), one shape everywhere. */
export function queueSpanAttributes(operation: "send" | "process", queue: string, messageId: string) {
  return {
    "messaging.system": "bullmq",
    "messaging.operation.type": operation,
    "messaging.destination.name": queue,
    "messaging.message.id": messageId,
  };
}
