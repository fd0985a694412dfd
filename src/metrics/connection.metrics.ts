import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:net';
import { Counter, Registry } from 'prom-client';

/**
 * Connections the API port closed on arrival because it already held MAX_CONNECTIONS (Node's `drop`
 * event of a server at its `maxConnections`): the connection bound at work, counted.
 */
@Injectable()
export class ConnectionMetrics implements OnApplicationBootstrap {
  private dropped = 0;

  constructor(
    registry: Registry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    const read = () => this.dropped;
    new Counter({
      name: 'http_connections_dropped_total',
      help: 'Connections closed on arrival because the API port held MAX_CONNECTIONS',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    server?.on('drop', () => this.dropped++);
  }
}
