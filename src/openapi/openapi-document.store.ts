import { type INestApplication, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createOpenApiDocument } from './openapi-document';

/** Built on first use, not at start: the scan costs ~0.2 s (e2e tests catch a broken document). */
@Injectable()
export class OpenApiDocument {
  private app: INestApplication | undefined;
  private document: OpenAPIObject | undefined;

  /** The application the document describes (`configureApp` passes it). */
  describe(app: INestApplication): void {
    this.app = app;
  }

  /** The application the document describes, for what is served beside it (the reference page). */
  application(): INestApplication {
    if (!this.app) throw new Error('The OpenAPI document has no application (configureApp passes it)');
    return this.app;
  }

  get(): OpenAPIObject {
    this.document ??= createOpenApiDocument(this.application());
    return this.document;
  }
}
