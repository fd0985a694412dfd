import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyService } from './api-key.service';

/** Stored keys, as the CLI and the server manage them. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeyService],
  exports: [ApiKeyService],
})
export class AuthModule {}
