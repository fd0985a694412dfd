/**
 * The limits the running service applies: `LIMITS` (src/common/access/limit-table.ts), provided by
 * LimitsModule. The throttlers, the counter stores, the guard and `/v1/usage` are all
 * built from it, so a test can compose the stack with another table (`overrideProvider`).
 */
export const LIMIT_TABLE = Symbol('LIMIT_TABLE');
