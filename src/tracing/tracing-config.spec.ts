import { ConfigError } from '../config/app-config';
import { tracingConfig } from './tracing-config';

describe('tracingConfig', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
  /** The standard's default, parentbased_always_on. */
  const ALL = { ratio: 1, parentBased: true };

  it('is off unless an OTLP endpoint is set, and then speaks protobuf unless told JSON', () => {
    expect(tracingConfig({})).toBeNull();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeNull();
    expect(tracingConfig(endpoint)).toEqual({ protocol: 'http/protobuf', sampling: ALL });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toEqual({
      protocol: 'http/protobuf',
      sampling: ALL,
    });
    expect(tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
      protocol: 'http/json',
      sampling: ALL,
    });
    expect(
      tracingConfig({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ protocol: 'http/json', sampling: ALL });
  });

  it('is off when the SDK is disabled or the traces exporter is none', () => {
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
      protocol: 'http/protobuf',
      sampling: ALL,
    });
  });

  it('refuses what it cannot do with one line naming the variable', () => {
    expect(() => tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      new ConfigError(
        'Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json',
      ),
    );
    expect(() => tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      'Invalid configuration: OTEL_TRACES_EXPORTER must be otlp or none',
    );
  });

  it('reads the sampler as the standard names it, a ratio from 0 to 1', () => {
    const sampling = (sampler: string, arg?: string) =>
      tracingConfig({ ...endpoint, OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: arg })?.sampling;
    expect(sampling('always_on')).toEqual({ ratio: 1, parentBased: false });
    expect(sampling('parentbased_always_off')).toEqual({ ratio: 0, parentBased: true });
    expect(sampling('parentbased_traceidratio', '0.01')).toEqual({ ratio: 0.01, parentBased: true });
    expect(sampling('TraceIdRatio', '.5')).toEqual({ ratio: 0.5, parentBased: false });
    expect(sampling('traceidratio')).toEqual({ ratio: 1, parentBased: false });
    for (const arg of ['2', '-0.1', 'half', '1e-2'])
      expect(() => sampling('traceidratio', arg)).toThrow(
        'Invalid configuration: OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1',
      );
    expect(() => sampling('jaeger_remote')).toThrow(
      /^Invalid configuration: OTEL_TRACES_SAMPLER must be one of /,
    );
  });
});
