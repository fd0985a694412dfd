import type { ServerResponse } from 'node:http';
import type { ErrorCode } from './error-catalogue';

const codes = new WeakMap<ServerResponse, ErrorCode>();

/** Remembers which error code a response carries (the exception filter knows it; metrics read it). */
export function recordResponseErrorCode(res: ServerResponse, code: ErrorCode): void {
  codes.set(res, code);
}

/** The error code recorded for `res`, if any. */
export function responseErrorCode(res: ServerResponse): ErrorCode | undefined {
  return codes.get(res);
}
