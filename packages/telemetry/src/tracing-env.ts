import { z } from "zod";

/**
 * The standard OpenTelemetry variables an app reads (spread into its env schema). Tracing is off
 * unless an exporter is named or an OTLP endpoint is set: a laptop without a collector should not
 * log export errors. `OTEL_SDK_DISABLED=true` turns it off whatever else is set.
 */
export const tracingEnvShape = {
  OTEL_SDK_DISABLED: z.enum(["true", "false"]).default("false"),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "console", "none"]).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_TRACES_SAMPLER: z
    .enum([
      "always_on",
      "always_off",
      "traceidratio",
      "parentbased_always_on",
      "parentbased_always_off",
      "parentbased_traceidratio",
    ])
    .default("parentbased_always_on"),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
};

type TracingEnv = z.output<z.ZodObject<typeof tracingEnvShape>>;

export interface TracingConfig {
  serviceName: string;
  exporter: "otlp" | "console" | "none";
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  tracesUrl?: string;
  sampler: TracingEnv["OTEL_TRACES_SAMPLER"];
  samplerRatio: number;
}

/** The tracing configuration an app's parsed env describes. */
export function tracingConfig(env: TracingEnv, defaultServiceName: string): TracingConfig {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : undefined);
  const exporter =
    env.OTEL_SDK_DISABLED === "true" ? "none" : (env.OTEL_TRACES_EXPORTER ?? (tracesUrl ? "otlp" : "none"));
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? defaultServiceName,
    exporter,
    tracesUrl,
    sampler: env.OTEL_TRACES_SAMPLER,
    samplerRatio: env.OTEL_TRACES_SAMPLER_ARG,
  };
}
