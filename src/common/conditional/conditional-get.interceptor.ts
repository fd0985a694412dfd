import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, map } from 'rxjs';
import { VersionedBody } from './versioned-body';

/**
 * The strong validator of an answer: the catalog version its data was read from and the request
 * target (path and query exactly as sent). Equal tags mean equal `data` and equal `meta` apart from
 * `request_id`, which names the exchange, not the representation (docs/api.md). No body is hashed.
 */
export function entityTag(version: string, target: string): string {
  return `"${createHash('sha256').update(version).update('\0').update(target).digest('base64url').slice(0, 27)}"`;
}

/**
 * Conditional GET and HEAD for routes whose handlers return a `VersionedBody`. It runs after the
 * guards and the validation pipes, and only on a handler's success, so refused, invalid and failed
 * requests carry no ETag and are never answered 304. It sets the ETag; Express decides freshness
 * (`If-None-Match`, including lists, weak comparison and `*`) when the answer is sent and then
 * answers 304 with no body. A fresh request is given no body, so a 304 serializes nothing.
 */
@Injectable()
export class ConditionalGetInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      map((answer: unknown) => {
        if (!(answer instanceof VersionedBody)) return answer;
        if (answer.version === null) return answer.body;
        res.setHeader('ETag', entityTag(answer.version, req.originalUrl));
        return req.fresh ? undefined : answer.body;
      }),
    );
  }
}
