import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state';
import { ServedCertificate } from './served-certificate';

/**
 * The HTTP server's lifecycle state, readable by any module (the health check reads the drain,
 * metrics the served certificate).
 */
@Global()
@Module({ providers: [DrainState, ServedCertificate], exports: [DrainState, ServedCertificate] })
export class ServerModule {}
