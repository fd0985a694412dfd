import type { DynamicModule } from '@nestjs/common';

/** What the standard OTEL_* variables ask of the tracing (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). */
export interface TracingConfig {
  /** OTLP over HTTP with protobuf bodies (the standard's default) or JSON bodies. */
  protocol: 'http/protobuf' | 'http/json';
  /** Which traces are kept (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
  sampling: TraceSampling;
}

/**
 * The share of new traces kept, and whether a local parent's decision is followed. A remote caller's
 * sampled flag never raises the share: its requests are sampled by trace id like any new trace.
 */
export interface TraceSampling {
  /** 0 to 1: always_off is 0, always_on 1, traceidratio its argument. */
  ratio: number;
  /** The parentbased_* samplers: a span whose parent is in this process follows the parent. */
  parentBased: boolean;
}

/** The tracing once started: what the Nest application needs of it. */
export interface Tracing {
  /** `NestFactory.create`'s `instrument` option: spans named after the service's classes and methods. */
  instrument: { instanceDecorator: (instance: unknown) => unknown };
  /** Flushes the spans not yet exported when the application shuts down. */
  module: DynamicModule;
}
