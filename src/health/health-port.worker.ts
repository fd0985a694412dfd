import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { ERROR_CATALOGUE } from '../common/errors/error-catalogue';
import { errorEnvelope } from '../common/errors/error-envelope';
import { assignRequestId } from '../common/request-id/request-id';
import { answerClientError, answerConnect } from '../server/client-error.handler';
import { RoutedRequests } from '../server/routed-requests';
import { EVERY_ANSWER_HEADERS } from '../server/security-headers';
import { BeatWatch, type HealthReading, type Phase, SHARED, probeAnswer } from './probe-state';
import {
  HEALTH_PATH,
  HEALTH_SERVER_BOUNDS,
  type ToHealthWorker,
  type FromHealthWorker,
  type HealthWorkerData,
} from './health-port.protocol';

/**
 * HEALTH_PORT's listener, in a thread of its own (`HealthServer` starts it): its event loop answers
 * probes whatever the main thread's is doing, from the state the main thread keeps current (the last
 * reading by message, the phase and heartbeat in shared memory). No Nest here: this thread loads a
 * few small modules only.
 */
function serve(data: HealthWorkerData, port: NonNullable<typeof parentPort>): void {
  const shared = data.shared;
  const post = (message: FromHealthWorker) => port.postMessage(message);
  const log = (message: string) => post({ type: 'debug', message });
  const beats = new BeatWatch(performance.now());
  let reading: { value: HealthReading; at: number } | null = null;

  const heartbeatAge = () => beats.observe(Atomics.load(shared, SHARED.heartbeat), performance.now());
  // Looks at the heartbeat between probes too, so its age is measured to within this period.
  setInterval(heartbeatAge, 100).unref();

  port.on('message', (message: ToHealthWorker) => {
    if (message.type === 'reading') reading = { value: message.reading, at: performance.now() };
  });

  const answer = (): HealthReading =>
    probeAnswer({
      phase: Atomics.load(shared, SHARED.phase) as Phase,
      reading: reading && { value: reading.value, ageMs: performance.now() - reading.at },
      heartbeatAgeMs: heartbeatAge(),
    });

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    for (const [name, value] of EVERY_ANSWER_HEADERS) res.setHeader(name, value);
    const requestId = assignRequestId(req, res);
    // One request per connection: a probe opens its own, and no idle client holds one of the few.
    res.setHeader('Connection', 'close');
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      return send(
        req,
        res,
        400,
        errorEnvelope('VALIDATION_ERROR', 'The request has no Host header.', requestId),
      );
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== HEALTH_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return send(
        req,
        res,
        404,
        errorEnvelope('ROUTE_NOT_FOUND', ERROR_CATALOGUE.ROUTE_NOT_FOUND.message, requestId),
      );
    }
    const result = answer();
    Atomics.add(shared, result.ok ? SHARED.answeredOk : SHARED.answeredFailed, 1);
    if (result.ok) send(req, res, 200, { data: [result.record], meta: { request_id: requestId } });
    else send(req, res, 500, errorEnvelope('INTERNAL_ERROR', result.message, requestId));
  };

  const server = boundedServer(handle, log);
  server.once('error', (error: NodeJS.ErrnoException) => {
    post({
      type: 'listen-failed',
      error: { message: error.message, code: error.code, syscall: error.syscall },
    });
  });
  server.listen(data.port, data.host, () => post({ type: 'listening' }));
}

/** A server bounded as docs/operations.md says (Probes): connections, time, and refusals in the envelope. */
function boundedServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  log: (message: string) => void,
): Server {
  const server = createServer(
    {
      // Refused by `handle` in the envelope; Node's own refusal is a bare 400 with no body.
      requireHostHeader: false,
      headersTimeout: HEALTH_SERVER_BOUNDS.headersTimeoutMs,
      requestTimeout: HEALTH_SERVER_BOUNDS.requestTimeoutMs,
      connectionsCheckingInterval: HEALTH_SERVER_BOUNDS.checkEveryMs,
    },
    handle,
  );
  server.maxConnections = HEALTH_SERVER_BOUNDS.maxConnections;
  server.setTimeout(HEALTH_SERVER_BOUNDS.idleSocketTimeoutMs);
  const routed = new RoutedRequests();
  routed.watch(server);
  server.on('clientError', (error, socket) => answerClientError(error, socket, routed, log));
  server.on('connect', (request, socket) => answerConnect(request, socket, log));
  // As on the API port: an expectation about a body no route reads is ignored, not a bare 417.
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  return server;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: object): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(req.method === 'HEAD' ? undefined : json);
}

if (parentPort) serve(workerData as HealthWorkerData, parentPort);
