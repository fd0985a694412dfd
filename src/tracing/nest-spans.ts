import { type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { CONTROLLER_WATERMARK, PATH_METADATA } from '@nestjs/common/constants';
import { ApiError } from '../common/errors/api-error';
import { ERROR_CATALOGUE } from '../common/errors/error-catalogue';

const tracer = trace.getTracer('catalog-api.nest');
const decorated = new WeakSet<object>();

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Spans for guards and route handlers (`ApiKeyGuard.canActivate`) through Nest's public
 * `instrument.instanceDecorator` option, so no framework internals are patched.
 */
export function decorateInstance(instance: unknown): unknown {
  if (typeof instance !== 'object' || instance === null || decorated.has(instance)) return instance;
  decorated.add(instance);
  const target = instance as Record<string, unknown>;
  const className = instance.constructor?.name ?? 'Anonymous';
  if (typeof target.canActivate === 'function') {
    target.canActivate = traced(className, 'canActivate', target.canActivate as Method);
  }
  if (Reflect.getMetadata(CONTROLLER_WATERMARK, instance.constructor) === true) {
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (typeof method === 'function' && Reflect.getMetadata(PATH_METADATA, method) !== undefined) {
        target[name] = traced(className, name, method as Method);
      }
    }
  }
  return instance;
}

/**
 * `method` wrapped in a span while a request's span is active. The wrapper carries the method's
 * metadata (Nest reads routes, guards and `@Public()` from the handler it calls) and its name.
 */
function traced(className: string, methodName: string, method: Method): Method {
  const name = `${className}.${methodName}`;
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    if (trace.getActiveSpan() === undefined) return method.apply(this, args);
    return tracer.startActiveSpan(name, { attributes: { 'code.function.name': name } }, (span) => {
      let result: unknown;
      try {
        result = method.apply(this, args);
      } catch (error) {
        end(span, error);
        throw error;
      }
      if (result instanceof Promise) {
        return result.then(
          (value: unknown) => {
            end(span);
            return value;
          },
          (error: unknown) => {
            end(span, error);
            throw error;
          },
        );
      }
      end(span);
      return result;
    });
  };
  for (const key of Reflect.getMetadataKeys(method))
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), wrapper);
  Object.defineProperty(wrapper, 'name', { value: method.name });
  return wrapper;
}

/**
 * Ends a span; a failure is recorded on it, and marks it as an error unless it is the client's (an
 * `ApiError` answered with a 4xx, such as a refused key or limit, is the guard doing its job).
 */
function end(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    const clientError = error instanceof ApiError && ERROR_CATALOGUE[error.code].status < 500;
    if (!clientError)
      span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
  }
  span.end();
}
