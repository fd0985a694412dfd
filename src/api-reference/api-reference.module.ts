import { Module } from '@nestjs/common';
import { KnownRoutesModule } from '../common/routing/known-routes';
import { OpenApiModule } from '../openapi/openapi.module';
import { ApiReferencePage } from './api-reference.page';

/**
 * The way in for people: the reference page at /docs. `/` serves nothing: its 404 names /docs and
 * /openapi.json in its message and its `Link` header (`routeNotFoundLinks`).
 */
@Module({
  imports: [OpenApiModule, KnownRoutesModule],
  providers: [ApiReferencePage],
})
export class ApiReferenceModule {}
