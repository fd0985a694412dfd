import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state';

/** The HTTP server's lifecycle state, readable by any module (the health check reads the drain). */
@Global()
@Module({ providers: [DrainState], exports: [DrainState] })
export class ServerModule {}
