import type { DynamicModule } from '@nestjs/common';

/** What the standard OTEL_* variables ask of the tracing (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). */
export interface TracingConfig {
  /** OTLP over HTTP with protobuf bodies (the standard's default) or JSON bodies. */
  protocol: 'http/protobuf' | 'http/json';
}

/** The tracing once started: what the Nest application needs of it. */
export interface Tracing {
  /** `NestFactory.create`'s `instrument` option: spans named after the service's classes and methods. */
  instrument: { instanceDecorator: (instance: unknown) => unknown };
  /** Flushes the spans not yet exported when the application shuts down. */
  module: DynamicModule;
}
