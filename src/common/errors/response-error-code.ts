import type { ServerResponse } from 'node:http';
import { ApiError } from './api-error';
import type { ErrorCode } from './error-catalogue';

interface RecordedError {
  code: ErrorCode;
  cause: unknown;
}

const recorded = new WeakMap<ServerResponse, RecordedError>();

/**
 * Remembers which error code a response carries and the exception it was made from (the exception
 * filter knows both; metrics read them once the response is sent).
 */
export function recordResponseError(res: ServerResponse, code: ErrorCode, cause?: unknown): void {
  recorded.set(res, { code, cause });
}

/** The error code recorded for `res`, if any. */
export function responseErrorCode(res: ServerResponse): ErrorCode | undefined {
  return recorded.get(res)?.code;
}

/** The exception an error response was made from, if the filter recorded one. */
export function responseErrorCause(res: ServerResponse): unknown {
  return recorded.get(res)?.cause;
}

/** Whether `res` is an answer the service gives on purpose (`ApiError.expected`), not a failure. */
export function responseErrorExpected(res: ServerResponse): boolean {
  const cause = recorded.get(res)?.cause;
  return cause instanceof ApiError && cause.expected;
}
