import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { OpenApiDocument } from './openapi/openapi-document.store';

/** Express settings the contract needs, shared by `main.ts` and the e2e tests. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Every body is small JSON that changes with the catalog; ETag hashing costs CPU per response.
  app.set('etag', false);
  app.enableShutdownHooks();
  app.get(OpenApiDocument).build(app);
  return app;
}

/**
 * No route reads a body, so none is parsed: a malformed or huge body can never fail a request.
 * Start-up errors are thrown to the caller (which prints one line) instead of aborting the process.
 */
export const APP_OPTIONS = { bodyParser: false, bufferLogs: true, abortOnError: false } as const;
