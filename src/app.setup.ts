import type { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { ACCESS_LOG } from './common/logging/access-log.middleware';
import { FrameworkStartLinesAtDebug } from './common/logging/framework-start-lines';
import { escapeUndecodablePathSegments } from './common/routing/path-escapes.middleware';
import { answerHeaders } from './server/answer-headers.middleware';
import { ByteAnswerExpressAdapter } from './server/byte-answer.adapter';
import { type FirstStep, firstSteps } from './server/first-steps';
import { configureAppServer } from './server/http-server';
import { OpenApiDocument } from './openapi/openapi-document.store';

/** Express settings the contract needs, shared by `main.ts` and the e2e tests. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  // Nest's own start-up lines (modules, routes) at debug: at info, the service's lines stand alone.
  app.useLogger(new FrameworkStartLinesAtDebug(app.get(Logger)));
  app.disable('x-powered-by');
  // Whose X-Forwarded-For/-Proto are believed (req.ip, req.secure); none unless TRUST_PROXY says.
  app.set('trust proxy', app.get<AppConfig>(APP_CONFIG).trustProxy);
  // Every body is small JSON that changes with the catalog; ETag hashing costs CPU per response.
  app.set('etag', false);
  const steps: FirstStep[] = [
    // First, so every answer carries them: errors, unknown routes and /health included.
    answerHeaders,
    // Before Express routes (and decodes parameters), so a bad escape meets the contract's order.
    escapeUndecodablePathSegments,
    // Here, not through Nest's MiddlewareConsumer: that wraps every request in a path match, a
    // WeakSet entry and an exception proxy (about 5% of a cached lookup's CPU in an A/B on Node 24).
    app.get<FirstStep>(ACCESS_LOG),
  ];
  // One Express layer for all three, or (`FAST_ANSWERS=0`) one layer each, as Express would run them.
  if (app.get<AppConfig>(APP_CONFIG).fastAnswers) app.use(firstSteps(...steps));
  else for (const step of steps) app.use(step);
  // Timeouts, connection bound, refusals and the drain; signals are handled by `drainOnSignals`.
  configureAppServer(app);
  app.get(OpenApiDocument).describe(app);
  return app;
}

/**
 * No route reads a body, so none is parsed: a malformed or huge body can never fail a request.
 * Start-up errors are thrown to the caller (which prints one line) instead of aborting the process.
 */
export const APP_OPTIONS = { bodyParser: false, bufferLogs: true, abortOnError: false } as const;

/**
 * Case-sensitive paths must be set before the adapter's constructor creates the router: Express
 * reads the setting only then.
 */
export function createHttpAdapter(fastAnswers = true): ExpressAdapter {
  return new ByteAnswerExpressAdapter(express().set('case sensitive routing', true), fastAnswers);
}
