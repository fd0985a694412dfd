import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestIdOf } from './request-id';
import { requestOf } from '../http-context';
import { OWN_ENVELOPE, markingHandler } from '../routing/handler-marks';

/**
 * The request's id (see `assignRequestId`), for `meta.request_id`: a handler that takes it writes its
 * own envelope, and the service sends what it returns as it is (`route-kit/route-defaults.ts`).
 */
export const RequestId = markingHandler(
  OWN_ENVELOPE,
  createParamDecorator((_data: unknown, ctx: ExecutionContext): string => requestIdOf(requestOf(ctx))),
);
