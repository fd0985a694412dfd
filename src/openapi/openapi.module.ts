import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocument } from './openapi-document.store';

@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class OpenApiModule {}
