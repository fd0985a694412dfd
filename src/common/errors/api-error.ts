import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue';

/** The one error type the service raises on purpose; the global filter turns it into the error envelope. */
export class ApiError extends Error {
  /** Whether the service answers this on purpose in a state it expects (not logged as a failure). */
  expected = false;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].message,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * A deliberate answer whose state is logged elsewhere (/health during the drain, an overload
   * refusal), so the filter does not log it as a failure.
   */
  static expected(code: ErrorCode, message?: string): ApiError {
    const error = new ApiError(code, message);
    error.expected = true;
    return error;
  }
}
