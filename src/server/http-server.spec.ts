import { type Server, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DrainState } from './drain-state';
import { SERVER_TIMEOUTS, configureHttpServer } from './http-server';

const CONFIG = { shutdownGraceMs: 0, shutdownTimeoutMs: 0, keepAliveTimeoutMs: 65_000, maxConnections: 7 };

function connectionHeader(server: Server): Promise<string | undefined> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get(
      { host: '127.0.0.1', port, path: '/', agent: false, headers: { Connection: 'keep-alive' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.connection));
      },
    ).on('error', reject);
  });
}

describe('configureHttpServer', () => {
  it('sets the timeouts and the connection bound', () => {
    const server = configureHttpServer(createServer(), CONFIG, new DrainState());
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(server.timeout).toBe(SERVER_TIMEOUTS.idleSocketTimeoutMs);
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.maxConnections).toBe(7);
    expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    expect(server.listenerCount('clientError')).toBe(1);
  });

  it('closes every connection after its answer once the drain has started', async () => {
    const drain = new DrainState();
    const server = configureHttpServer(
      createServer((_req, res) => res.end('ok')),
      CONFIG,
      drain,
    );
    await new Promise<void>((resolve) => server.listen(4370, '127.0.0.1', resolve));
    try {
      expect(await connectionHeader(server)).toBe('keep-alive');
      drain.start();
      expect(await connectionHeader(server)).toBe('close');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
