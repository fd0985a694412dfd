import type { ArgumentsHost } from '@nestjs/common';
import type { Request, Response } from 'express';

/**
 * An HTTP context's request and response by the host's documented argument order (request,
 * response, next). `switchToHttp()` builds three closures and assigns them onto the context on every
 * call, and a cached answer's guards, throttlers and parameters asked it a dozen times a request.
 */
export function requestOf<T = Request>(context: ArgumentsHost): T {
  return context.getArgByIndex<T>(0);
}

export function responseOf<T = Response>(context: ArgumentsHost): T {
  return context.getArgByIndex<T>(1);
}
