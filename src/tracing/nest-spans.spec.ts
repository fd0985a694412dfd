import { Controller, Get, type CanActivate } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ApiError } from '../common/errors/api-error';
import { decorateInstance } from './nest-spans';

class RefusingGuard implements CanActivate {
  canActivate(): Promise<boolean> {
    return Promise.reject(new ApiError('INVALID_API_KEY'));
  }
}

@Controller('things')
class ThingsController {
  @Get(':id')
  one(): string {
    return 'one';
  }

  helper(): string {
    return 'not a route';
  }
}

describe('decorateInstance', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  beforeAll(() => provider.register());
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());

  it("runs a guard's canActivate and a route handler in spans named after the class, inside a request's span", async () => {
    const guard = decorateInstance(new RefusingGuard()) as RefusingGuard;
    const controller = decorateInstance(new ThingsController()) as ThingsController;
    await tracer.startActiveSpan('request', async (request) => {
      await expect(guard.canActivate()).rejects.toThrow(ApiError);
      expect(controller.one()).toBe('one');
      expect(controller.helper()).toBe('not a route');
      request.end();
    });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'RefusingGuard.canActivate',
      'ThingsController.one',
      'request',
    ]);
    const refused = spans.find((span) => span.name === 'RefusingGuard.canActivate')!;
    expect(refused.events.map((event) => event.name)).toEqual(['exception']);
    // A refused key is the guard doing its job, not an error of the service.
    expect(refused.status.code).toBe(0);
  });

  it('keeps the metadata Nest reads from the handler, and adds no span outside a request', () => {
    const controller = decorateInstance(new ThingsController()) as ThingsController;
    expect(Reflect.getMetadata(PATH_METADATA, controller.one)).toBe(':id');
    expect(controller.one.name).toBe('one');
    Reflect.defineMetadata(GUARDS_METADATA, [], ThingsController.prototype.one);
    expect(decorateInstance(controller)).toBe(controller);
    expect(controller.one()).toBe('one');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
