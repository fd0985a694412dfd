import { type INestApplication, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createOpenApiDocument } from './openapi-document';

/** Holds the document `/openapi.json` serves; built once, when the application is configured. */
@Injectable()
export class OpenApiDocument {
  private document: OpenAPIObject | undefined;

  build(app: INestApplication): OpenAPIObject {
    this.document = createOpenApiDocument(app);
    return this.document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('The OpenAPI document was not built (configureApp builds it)');
    return this.document;
  }
}
