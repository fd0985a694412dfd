import { Module } from '@nestjs/common';
import { RouteMetadataModule } from '../common/routing/route-metadata';
import { ApiKeyDirectory } from './api-key-directory';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysModule } from './api-keys.module';

/**
 * Auth: who is calling. Request authentication for the HTTP server (not the CLI): the in-memory key
 * directory and `ApiKeyGuard`, over the stored keys of `ApiKeysModule` (which the CLI shares).
 */
@Module({
  imports: [ApiKeysModule, RouteMetadataModule],
  providers: [ApiKeyDirectory, ApiKeyGuard],
  exports: [ApiKeyDirectory, ApiKeyGuard],
})
export class AuthModule {}
