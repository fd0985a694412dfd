import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { RequestId } from '../common/request-id/request-id.decorator';
import { Public } from '../common/routing/public-route.decorator';
import { OpenApiDocument } from './openapi-document.store';

/** The API description, public, built once at start from the controllers. */
@Controller()
@ApiExcludeController()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  @Public()
  // @RequestId sets X-Request-Id, which every response carries.
  serve(@RequestId() _requestId: string): OpenAPIObject {
    return this.document.get();
  }
}
