import type { LoggerService } from '@nestjs/common';
import { FrameworkStartLinesAtDebug } from './framework-start-lines';

function fakeLogger() {
  return { log: jest.fn(), error: jest.fn(), warn: jest.fn(), debug: jest.fn(), verbose: jest.fn() };
}

describe('FrameworkStartLinesAtDebug', () => {
  it.each(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'])(
    "writes Nest's %s lines at debug",
    (context) => {
      const inner = fakeLogger();
      new FrameworkStartLinesAtDebug(inner as LoggerService).log('Mapped {/health, GET} route', context);
      expect(inner.debug).toHaveBeenCalledWith('Mapped {/health, GET} route', context);
      expect(inner.log).not.toHaveBeenCalled();
    },
  );

  it("keeps the application's own lines, and every warning and error, at their level", () => {
    const inner = fakeLogger();
    const logger = new FrameworkStartLinesAtDebug(inner as LoggerService);
    logger.log('Listening on http://127.0.0.1:3000', 'Startup');
    logger.log('no context');
    logger.warn('careful', 'InstanceLoader');
    logger.error('failed', 'NestApplication');
    expect(inner.log.mock.calls).toEqual([['Listening on http://127.0.0.1:3000', 'Startup'], ['no context']]);
    expect(inner.warn).toHaveBeenCalledWith('careful', 'InstanceLoader');
    expect(inner.error).toHaveBeenCalledWith('failed', 'NestApplication');
    expect(inner.debug).not.toHaveBeenCalled();
  });
});
