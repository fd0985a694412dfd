import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../../config/app-config';
import { ACCESS_LOG, accessLog } from './access-log.middleware';
import { loggerModuleParams, rootLogger } from './logger-options';

/**
 * The application's logger (nestjs-pino over one pino instance) and the access line of every request
 * (`ACCESS_LOG`, mounted by `configureApp`).
 */
@Module({})
export class LoggingModule {
  static forRoot(config: Pick<AppConfig, 'logLevel'>): DynamicModule {
    const root = rootLogger(config);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot(loggerModuleParams(root))],
      providers: [{ provide: ACCESS_LOG, useValue: accessLog(root) }],
      exports: [ACCESS_LOG],
    };
  }
}
