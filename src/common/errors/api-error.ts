import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue';

/**
 * The one error type the service raises on purpose. The global filter turns it into the error
 * envelope; `headers` carries extras such as Retry-After.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
