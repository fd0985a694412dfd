/** The limits the service applies (`LIMITS` unless a test overrides it): every part of the limits is built from it. */
export const LIMIT_TABLE = Symbol('LIMIT_TABLE');
