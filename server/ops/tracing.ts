import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Middleware } from 'koa';

export interface Tracing {
  /** false: no OTLP endpoint is configured; spans are not recorded */
  enabled: boolean;
  /** what the Temporal workflow span sink hands workflow spans to (server/temporal/worker.ts) */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** exports every span ended so far (tests await it instead of a timer) */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

/**
 * OpenTelemetry traces, exported over OTLP/HTTP when `otlpEndpoint` is set (the base URL, as
 * OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`). One trace follows a call
 * event: the HTTP request (server span, below), the Temporal client's start, the workflow and each
 * activity (`@temporalio/interceptors-opentelemetry`, wired in server/temporal/*.ts), and each
 * outgoing HTTP request an activity makes (undici instrumentation: Node's fetch). The SDK is
 * process-wide: the first call decides, later calls get the same instance.
 */
export function startTracing(opts: { otlpEndpoint: string | undefined; serviceName: string }): Tracing {
  if (current) return current;
  const resource = new Resource({ 'service.name': opts.serviceName });
  if (!opts.otlpEndpoint) {
    current = { enabled: false, spanProcessor: new NoopSpanProcessor(), resource, forceFlush: async () => {}, shutdown: async () => {} };
    return current;
  }
  const exporter = new OTLPTraceExporter({ url: `${opts.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 });
  const sdk = new NodeSDK({
    resource,
    autoDetectResources: false,
    spanProcessors: [spanProcessor],
    instrumentations: [new UndiciInstrumentation()],
  });
  sdk.start();
  current = {
    enabled: true,
    spanProcessor,
    resource,
    forceFlush: () => spanProcessor.forceFlush(),
    shutdown: () => sdk.shutdown(),
  };
  return current;
}

/**
 * A server span per HTTP request, continuing a caller's `traceparent`, named by the route template
 * once the router has matched (`POST /api/events/calls`), so what follows in the request (the
 * Temporal client's start of a run) is its child.
 */
export function traceRequests(): Middleware {
  const tracer = trace.getTracer('voice-campaigns.http');
  return async function traceRequestsMiddleware(ctx, next) {
    const parent = propagation.extract(context.active(), ctx.headers);
    await tracer.startActiveSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
      parent,
      async (span) => {
        try {
          await next();
        } finally {
          const route = (ctx as { _matchedRoute?: string })._matchedRoute;
          if (route) {
            span.updateName(`${ctx.method} ${route}`);
            span.setAttribute('http.route', route);
          }
          span.setAttribute('http.response.status_code', ctx.status);
          if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        }
      },
    );
  };
}
