import type { ErrorCode } from './error-catalogue';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; request_id: string };
}

/** The contract's error body; the global filter and the server's refusal hook both build it here. */
export function errorEnvelope(code: ErrorCode, message: string, requestId: string): ErrorEnvelope {
  return { error: { code, message, request_id: requestId } };
}
