import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { Span } from '@opentelemetry/api';
import {
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
} from '@opentelemetry/semantic-conventions';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { packageVersion } from '../cli/cli-version';
import { responseErrorCode } from '../common/errors/response-error-code';
import type { AppConfig } from '../config/app-config';
import { decorateInstance } from './nest-spans';
import { setRequestTraceId } from '../common/logging/request-trace';
import { LOGGED_URL_MAX, loggedUrl } from '../common/logging/redact-url';
import type { Tracing, TraceSampling, TracingConfig } from './tracing.types';

/** The service's name in traces unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names it. */
const SERVICE_NAME = 'catalog-api';

/**
 * Starts the OpenTelemetry SDK. Statements are traced only inside a request's trace, so background
 * polls start none; probes and scrapes are not traced. See docs/operations.md, Traces.
 */
export function startTracing(config: TracingConfig, app: AppConfig): Tracing {
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(
        resourceFromAttributes({
          [ATTR_SERVICE_NAME]: SERVICE_NAME,
          [ATTR_SERVICE_VERSION]: packageVersion(__dirname),
        }),
      )
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(exporter(config))],
    sampler: sampler(config.sampling),
    // No attribute carries more of a client's text than an access line does.
    spanLimits: { attributeValueLengthLimit: LOGGED_URL_MAX },
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (req) =>
          req.socket.localPort === app.metricsPort || (req.url ?? '').split('?')[0] === '/health',
        requestHook: (span, req) => {
          if (!('socket' in req)) return;
          setRequestTraceId(req as IncomingMessage, span.spanContext().traceId);
          redactUrlAttributes(span, (req as IncomingMessage).url ?? '');
        },
        // The route template names the request's span (`GET /v1/titles/:imdb_id`), as Express matched it.
        applyCustomAttributesOnSpan: (span, req, res) => {
          const route = matchedRoute(
            req as IncomingMessage & { route?: { path?: unknown } },
            res as ServerResponse,
          );
          if (route === undefined) return;
          span.setAttribute(ATTR_HTTP_ROUTE, route);
          span.updateName(`${(req as IncomingMessage).method ?? 'GET'} ${route}`);
        },
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  return {
    instrument: { instanceDecorator: decorateInstance },
    module: {
      module: TracingShutdownModule,
      providers: [{ provide: NodeTracerProvider, useValue: provider }, TracingShutdown],
    },
  };
}

/**
 * The request's path and query as the access line has them: credentials and key-shaped text
 * redacted, at most LOGGED_URL_MAX characters (the instrumentation redacts only a fixed list of names).
 */
function redactUrlAttributes(span: Span, url: string): void {
  const logged = loggedUrl(url);
  const queryStart = logged.indexOf('?');
  span.setAttribute(ATTR_URL_PATH, queryStart === -1 ? logged : logged.slice(0, queryStart));
  if (queryStart !== -1) span.setAttribute(ATTR_URL_QUERY, logged.slice(queryStart + 1));
}

/**
 * New traces and remote callers' sampled ones alike are kept by trace id at the configured ratio, so a
 * client's `traceparent` cannot make this replica trace (and pay for) more; a caller that did not
 * sample is followed (that costs nothing), and so is a parent in this process, under parentbased_*.
 */
function sampler({ ratio, parentBased }: TraceSampling): Sampler {
  const byTraceId =
    ratio >= 1
      ? new AlwaysOnSampler()
      : ratio <= 0
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratio);
  if (!parentBased) return byTraceId;
  return new ParentBasedSampler({
    root: byTraceId,
    remoteParentSampled: byTraceId,
  });
}

/** The route Express matched for an answered request; none for an unknown path (ROUTE_NOT_FOUND). */
function matchedRoute(
  req: IncomingMessage & { route?: { path?: unknown } },
  res: ServerResponse,
): string | undefined {
  const path = req.route?.path;
  return typeof path === 'string' && responseErrorCode(res) !== 'ROUTE_NOT_FOUND' ? path : undefined;
}

/** Each exporter reads its endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables. */
function exporter(config: TracingConfig): SpanExporter {
  return config.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
}

/** Exports the spans still batched when the application shuts down (after the drain). */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  constructor(private readonly provider: NodeTracerProvider) {}

  async onApplicationShutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}

@Module({})
class TracingShutdownModule {}
