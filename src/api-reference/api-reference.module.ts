import { Module } from '@nestjs/common';
import { KnownRoutesModule } from '../common/routing/known-routes';
import { OpenApiModule } from '../openapi/openapi.module';
import { ApiReferencePage } from './api-reference.page';
import { SignpostController } from './signpost.controller';

/** The ways in for people: the reference page at /docs and the signpost at /. */
@Module({
  imports: [OpenApiModule, KnownRoutesModule],
  controllers: [SignpostController],
  providers: [ApiReferencePage],
})
export class ApiReferenceModule {}
