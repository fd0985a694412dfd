import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { ApiError } from '../common/errors/api-error';
import { ERROR_CATALOGUE } from '../common/errors/error-catalogue';
import { errorEnvelope } from '../common/errors/error-envelope';
import { assignRequestId } from '../common/request-id/request-id';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EVERY_ANSWER_HEADERS } from '../server/security-headers';
import { HealthService } from './health.service';

export const HEALTH_PATH = '/health';

/**
 * GET /health on HEALTH_PORT: Node accepts one connection per loop turn per listener, so probes get
 * their own queue. Ready only once the API port listens, or traffic would be routed to a closed port.
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Health');
  private server: Server | undefined;

  constructor(
    private readonly health: HealthService,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.healthPort;
    if (port === null) return;
    const server = createServer((req, res) => void this.handle(req, res));
    server.headersTimeout = 10_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`Health probes on http://${this.config.host}:${port}${HEALTH_PATH}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of EVERY_ANSWER_HEADERS) res.setHeader(name, value);
    const requestId = assignRequestId(req, res);
    const path = (req.url ?? '').split('?')[0];
    if (path !== HEALTH_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return this.send(
        req,
        res,
        404,
        errorEnvelope('ROUTE_NOT_FOUND', ERROR_CATALOGUE.ROUTE_NOT_FOUND.message, requestId),
      );
    }
    try {
      if (!this.apiListening()) throw ApiError.expected('INTERNAL_ERROR', 'The service is starting.');
      this.send(req, res, 200, await this.health.check(requestId));
    } catch (error) {
      const refusal = error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR');
      this.send(
        req,
        res,
        ERROR_CATALOGUE[refusal.code].status,
        errorEnvelope(refusal.code, refusal.message, requestId),
      );
    }
  }

  private apiListening(): boolean {
    return (this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined)?.listening === true;
  }

  private send(req: IncomingMessage, res: ServerResponse, status: number, body: object): void {
    const json = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(req.method === 'HEAD' ? undefined : json);
  }
}
