import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/app-config';
import type { Tracing, TracingConfig } from './tracing.types';

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * Whether the OTEL_* variables ask for traces; null when not. Unsupported exporters are refused in
 * one line rather than ignored. See docs/operations.md, Traces.
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
 * Must run before the application's modules load (instrumentations patch modules as required);
 * without traces no OpenTelemetry package is loaded.
 */
export async function startTracingIfAsked(env: NodeJS.ProcessEnv, app: AppConfig): Promise<Tracing | null> {
  const config = tracingConfig(env);
  if (config === null) return null;
  const { startTracing } = await import('./tracing');
  return startTracing(config, app);
}
