/** PostgreSQL's query_canceled: what a statement_timeout (or pg_cancel_backend) raises. */
export const QUERY_CANCELED = '57014';

/** Whether a failure was a cancelled statement, thrown as it is or as the cause of a wrapping error. */
export function isQueryCanceled(error: unknown): boolean {
  const code = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
  return (
    code(error) === QUERY_CANCELED || code((error as { cause?: unknown } | null)?.cause) === QUERY_CANCELED
  );
}
