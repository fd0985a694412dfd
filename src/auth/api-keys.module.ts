import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyService } from './api-key.service';
import { KeysMarkers } from './keys-marker';

/** Stored keys, as the CLI and the server manage them, and their marker as the state poll reads it. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeyService, KeysMarkers],
  exports: [ApiKeyService, KeysMarkers],
})
export class ApiKeysModule {}
