import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/app-config';
import type { Tracing, TracingConfig } from './tracing.types';

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Whether the OTEL_* variables ask for traces, and how; null when they do not. Traces are on when an
 * OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Other exporters and OTLP over gRPC are refused
 * with one line rather than ignored. The rest (headers, timeout, sampler, resource, batching) is
 * read by the OpenTelemetry SDK itself.
 */
export function tracingConfig(env: NodeJS.ProcessEnv): TracingConfig | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return null;
  const exporter = value('OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporter === 'none') return null;
  if (exporter !== undefined && exporter !== 'otlp')
    throw new ConfigError('Invalid configuration: OTEL_TRACES_EXPORTER must be otlp or none');
  if (!value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') && !value('OTEL_EXPORTER_OTLP_ENDPOINT')) return null;
  const protocolVariable = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = value(protocolVariable) ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError(`Invalid configuration: ${protocolVariable} must be http/protobuf or http/json`);
  return { protocol: protocol as TracingConfig['protocol'] };
}

/**
 * Starts tracing when the environment asks for it, before the application's modules load (the
 * instrumentations patch `http`, `express`, `pg` and `ioredis` as they are required). Otherwise no
 * OpenTelemetry package is loaded at all.
 */
export async function startTracingIfAsked(env: NodeJS.ProcessEnv, app: AppConfig): Promise<Tracing | null> {
  const config = tracingConfig(env);
  if (config === null) return null;
  const { startTracing } = await import('./tracing');
  return startTracing(config, app);
}
