import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/app-config';
import type { Tracing, TraceSampling, TracingConfig } from './tracing.types';

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

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
  return { protocol: protocol as TracingConfig['protocol'], sampling: traceSampling(value) };
}

/**
 * OTEL_TRACES_SAMPLER and its argument, read as the standard names them (default
 * parentbased_always_on), with one difference: a remote `traceparent` cannot ask for more traces than
 * the ratio keeps (docs/operations.md, Traces). Samplers this service does not build stop the start.
 */
function traceSampling(value: (name: string) => string | undefined): TraceSampling {
  const sampler = value('OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  if (!(SAMPLERS as readonly string[]).includes(sampler))
    throw new ConfigError(`Invalid configuration: OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  const parentBased = sampler.startsWith('parentbased_');
  if (sampler.endsWith('always_on')) return { ratio: 1, parentBased };
  if (sampler.endsWith('always_off')) return { ratio: 0, parentBased };
  const argument = value('OTEL_TRACES_SAMPLER_ARG') ?? '1';
  const ratio = /^(0|1|0?\.\d+|1\.0*)$/.test(argument) ? Number(argument) : Number.NaN;
  if (Number.isNaN(ratio))
    throw new ConfigError('Invalid configuration: OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1');
  return { ratio, parentBased };
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
