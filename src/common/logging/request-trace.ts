import type { IncomingMessage } from 'node:http';

const TRACE_ID = Symbol('traceId');

type Traced = IncomingMessage & { [TRACE_ID]?: string };

/** Notes the trace a request's server span belongs to (set by the HTTP instrumentation when tracing is on). */
export function setRequestTraceId(req: IncomingMessage, traceId: string): void {
  (req as Traced)[TRACE_ID] = traceId;
}

/** The trace id of a request's server span; undefined when tracing is off. */
export function requestTraceId(req: IncomingMessage): string | undefined {
  return (req as Traced)[TRACE_ID];
}
