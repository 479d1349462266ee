import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { TracingConfig } from "./tracing-env.ts";

export interface Tracing {
  /** False when tracing is off: callers skip even the cheap no-op instrumentation. */
  enabled: boolean;
  /** Flushes spans still buffered; call on shutdown. */
  shutdown: () => Promise<void>;
}

function samplerFor(config: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
  }
}

/**
 * Starts the OpenTelemetry SDK for this process: W3C trace context, async-hooks context, the
 * configured sampler and exporter. Tests pass their own span processors (an in-memory exporter).
 * With the exporter `none` and no processors nothing is registered: tracing costs nothing.
 */
export function startTracing(config: TracingConfig, processors: SpanProcessor[] = []): Tracing {
  const spanProcessors = [...processors];
  if (config.exporter === "otlp") {
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl })));
  } else if (config.exporter === "console") {
    spanProcessors.push(new BatchSpanProcessor(new ConsoleSpanExporter()));
  }
  if (spanProcessors.length === 0) return { enabled: false, shutdown: async () => {} };

  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    sampler: samplerFor(config),
    spanProcessors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    enabled: true,
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
