import { type Socket, connect } from 'node:net';
import { freePort } from './support/free-port';
import { CONTAINER_NODE_ARGS, ServerProcess } from './support/server-process';
import { seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';

/** Held open together: the server's default connection cap (4,096) admits every one. */
const CONNECTIONS = 4_000;
/** Characters after the prefix: a well-formed key (the format sets no upper length) near Node's 16 KB head. */
const FORGED_KEY_LENGTH = 15_600;
/** Connections opening at once: the listen backlog is not what this test is about. */
const OPENING_AT_ONCE = 200;
const MB = 1024 * 1024;

/** One kept-alive connection that sends `request` and reads the answer, each time it is asked. */
class HeldConnection {
  private pending: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;
  private received = '';

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      this.received += text;
      const head = this.received.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(this.received.slice(0, head));
      const end = head + 4 + Number(length?.[1] ?? 0);
      if (this.received.length < end) return;
      const status = Number(this.received.slice(9, 12));
      this.received = this.received.slice(end);
      this.pending?.resolve(status);
      this.pending = undefined;
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  static open(port: number): Promise<HeldConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new HeldConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(request: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request, 'latin1');
    });
  }

  close(): void {
    this.socket.removeAllListeners('close');
    this.socket.resetAndDestroy();
  }

  private fail(error: Error): void {
    this.pending?.reject(error);
    this.pending = undefined;
  }
}

async function inBatches<T>(count: number, size: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, i) => run(start + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

/**
 * Keys live in a replica's memory only as hashes: thousands of connections each sending a 15 KB
 * forged key twice, held open together, leave nothing of those headers behind once answered, so the
 * server stays alive under the container image's heap cap, with logs on.
 */
describe('forged keys on held connections', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let metricsPort: number;
  let inspectPort: number;
  const connections: HeldConnection[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    await seedServedCatalog(database.config);
    metricsPort = await freePort();
    inspectPort = await freePort();
    server = await ServerProcess.startAsImage({
      DATABASE_URL: database.config.url,
      METRICS_PORT: String(metricsPort),
      NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectPort}`,
    });
  }, 120_000);
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await server?.stop();
    await database?.drop();
  });

  it(`stays alive with ${CONNECTIONS} connections each sending a ${FORGED_KEY_LENGTH}-character key twice`, async () => {
    const request = (i: number) =>
      `GET /v1/titles/tt0000001 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Authorization: Bearer mov_live_${String.fromCharCode(97 + (i % 26)).repeat(FORGED_KEY_LENGTH)}\r\n\r\n`;
    connections.push(
      ...(await inBatches(CONNECTIONS, OPENING_AT_ONCE, () => HeldConnection.open(server.port))),
    );
    for (const round of ['first', 'second']) {
      const statuses = await inBatches(CONNECTIONS, OPENING_AT_ONCE, (i) =>
        connections[i].send(request(i)).catch(async (error: Error) => {
          // A crash resets its connections before the process is seen to exit.
          await Promise.race([server.exited, sleep(2_000)]);
          throw new Error(`${round} request on connection ${i}: ${error.message}; ${exitOf(server)}`);
        }),
      );
      expect(statuses.filter((status) => status !== 401)).toEqual([]);
    }
    // Every connection is still open and answered: the server neither crashed nor shed them.
    const cap = Number(/--max-old-space-size=(\d+)/.exec(CONTAINER_NODE_ARGS.join(' '))![1]) * MB;
    const rightAfter = await heapUsedBytes(metricsPort);
    // Until V8 collects them the answered headers are garbage, which a busy machine leaves longer: what
    // the heap holds after a full collection is what the server keeps.
    await server.collectGarbage(inspectPort);
    const heapUsed = await heapUsedBytes(metricsPort);
    console.info(
      `forged keys: ${CONNECTIONS} connections held, heap used ${Math.round(rightAfter / MB)} MB right after, ` +
        `${Math.round(heapUsed / MB)} MB after a full collection, of a ${cap / MB} MB cap`,
    );
    expect(server.alive).toBe(true);
    // The headers alone would be CONNECTIONS × 15.6 KB = 62 MB on top of a ~50 MB working heap:
    // under half the cap, nothing of them is kept once answered.
    expect(heapUsed).toBeLessThan(cap / 2);
  }, 300_000);
});

function exitOf(server: ServerProcess): string {
  if (server.alive) return 'the server is alive';
  return `the server exited: ${server.logs().split('\n').slice(-8).join('\n')}`;
}

async function heapUsedBytes(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text);
  if (!line) throw new Error('no nodejs_heap_size_used_bytes on /metrics');
  return Number(line[1]);
}
