import "server-only";
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";

/** OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set: a span per request, a child per upstream call, sending `traceparent`. */
const tracer = () => trace.getTracer("store-analytics-dashboard");

/** Registers the provider for the process; returns its shutdown (flushes what is buffered). */
export function startTracing(options: { endpoint: string; serviceName: string; version: string; buildId: string }): () => Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: options.version,
      "service.build_id": options.buildId,
    }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }), { scheduledDelayMillis: 1_000 }),
    ],
  });
  provider.register();
  return () => provider.shutdown();
}

/** Runs a request inside its server span, continuing a trace the caller started (`traceparent`). */
export function inRequestSpan<T>(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  attributes: Record<string, string>,
  run: (span: Span) => T,
): T {
  const parent = propagation.extract(context.active(), headers);
  return tracer().startActiveSpan(name, { kind: SpanKind.SERVER, attributes }, parent, run);
}

/** Runs one upstream call in a child span; `headers` get its `traceparent`. The span ends when the call settles. */
export async function inUpstreamSpan<T>(
  name: string,
  headers: Record<string, string>,
  run: () => Promise<T>,
  status: (result: T) => number,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT }, async (span) => {
    propagation.inject(context.active(), headers);
    try {
      const result = await run();
      span.setAttribute("http.response.status_code", status(result));
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
