import { ConfigError } from '../config/app-config';
import { tracingConfig } from './tracing-config';

describe('tracingConfig', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

  it('is off unless an OTLP endpoint is set, and then speaks protobuf unless told JSON', () => {
    expect(tracingConfig({})).toBeNull();
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeNull();
    expect(tracingConfig(endpoint)).toEqual({ protocol: 'http/protobuf' });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toEqual({
      protocol: 'http/protobuf',
    });
    expect(tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
      protocol: 'http/json',
    });
    expect(
      tracingConfig({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ protocol: 'http/json' });
  });

  it('is off when the SDK is disabled or the traces exporter is none', () => {
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
      protocol: 'http/protobuf',
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
});
