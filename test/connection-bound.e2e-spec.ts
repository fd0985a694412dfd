import { type AddressInfo, type Socket, connect } from 'node:net';
import { Registry } from 'prom-client';
import { loadConfig } from '../src/config/app-config';
import { freePort } from './support/free-port';
import { rawRequest } from './support/raw-http';
import { type TestApp, createTestApp } from './support/test-app';
import { eventually } from './support/timing';

const MAX_CONNECTIONS = 3;

/** The server holds at most MAX_CONNECTIONS connections; a freed slot serves again. */
describe('the connection bound', () => {
  let t: TestApp;
  /** Chosen by the OS: the e2e parts run side by side, and each may run this file at the same time. */
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      server: { ...loadConfig({}).server, maxConnections: MAX_CONNECTIONS },
      metricsPort: await freePort(),
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
      socket.on('error', reject);
    });
  const health = 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

  const dropped = async () => {
    const metric = await t.app.get(Registry).getSingleMetric('http_connections_dropped_total')!.get();
    return metric.values[0]?.value ?? 0;
  };

  it(`refuses connections beyond ${MAX_CONNECTIONS}, counts them, and serves again once one closes`, async () => {
    expect((await rawRequest(port, health)).status).toBe(200);
    expect(await dropped()).toBe(0);
    const idle = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    try {
      await expect(rawRequest(port, health)).rejects.toThrow('closed without a complete answer');
      expect(await dropped()).toBe(1);
      idle.pop()?.destroy();
      await eventually(
        () =>
          rawRequest(port, health).then(
            (answer) => answer.status === 200,
            () => false,
          ),
        5_000,
        50,
      );
    } finally {
      for (const socket of idle) socket.destroy();
    }
  });
});
