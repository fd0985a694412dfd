import { type DynamicModule, Inject, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { accessLog } from './access-log.middleware';
import { loggerModuleParams, rootLogger } from './logger-options';

const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** The application's logger (nestjs-pino over one pino instance) and the access line of every request. */
@Module({})
export class LoggingModule implements NestModule {
  static forRoot(config: Pick<AppConfig, 'logLevel'>): DynamicModule {
    const root = rootLogger(config);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot(loggerModuleParams(root))],
      providers: [{ provide: ROOT_LOGGER, useValue: root }],
    };
  }

  constructor(@Inject(ROOT_LOGGER) private readonly root: Logger) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(accessLog(this.root)).forRoutes('*');
  }
}
