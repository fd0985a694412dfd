import { get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { FloodProcess } from './support/flood-process';
import { freePort } from './support/free-port';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { databaseEnvironment, createServedDatabase } from './support/served-database';
import { ServerProcess } from './support/server-process';
import type { TestDatabase } from './support/test-database';

/** Clients keeping the server's event loop busy on kept-alive connections. */
const BUSY_CLIENTS = 48;
/**
 * Clients opening a new connection for each request while they do: the API port accepts them one per
 * event-loop turn, so its queue of connections waiting to be accepted never empties.
 */
const CONNECTING_CLIENTS = 200;
const PROBES = 20;
/** The readiness promise under a flood (docs/operations.md): probes answered within a second (p95). */
const PROBE_WITHIN_MS = 1_000;

/**
 * Probes survive a flood: while clients keep the server busy and others keep new connections waiting
 * to be accepted on the API port, a probe on HEALTH_PORT (a new connection each time, as a kubelet's)
 * is answered within the readiness promise. The API port's /health, behind those connections, is
 * timed beside it for the log. The flood comes from a process of its own, as a kubelet's probes come
 * from another host than the clients': from this one, a probe would also wait for this process to
 * open and read the flood's 248 connections, and time that. A small flood CI can hold; the full one is
 * `bench/search-overload.ts`.
 */
describe('health probes under a flood', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;
  let healthPort: number;

  beforeAll(async () => {
    database = await createServedDatabase();
    ({ key } = await seedServedCatalog(database.config));
    healthPort = await freePort();
    server = await ServerProcess.start(await freePort(), {
      ...databaseEnvironment(database),
      HEALTH_PORT: String(healthPort),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(`answers probes on HEALTH_PORT within ${PROBE_WITHIN_MS} ms (p95) while the API port is flooded`, async () => {
    const flood = await FloodProcess.start({
      port: server.port,
      key,
      busyPaths: Array.from({ length: BUSY_CLIENTS }, (_, i) => lookupPath(i)),
      connectingPaths: Array.from({ length: CONNECTING_CLIENTS }, (_, i) => lookupPath(i)),
    });
    const healthMs: number[] = [];
    const apiMs: number[] = [];
    let floodAnswers: Record<string, number>;
    try {
      for (let i = 0; i < PROBES; i++) {
        const [onHealthPort, onApiPort] = await Promise.all([
          send(healthPort, '/health'),
          send(server.port, '/health'),
        ]);
        expect(onHealthPort.status).toBe(200);
        healthMs.push(onHealthPort.ms);
        apiMs.push(onApiPort.ms);
      }
    } finally {
      floodAnswers = await flood.stop();
    }

    const sorted = [...healthMs].sort((a, b) => a - b);
    console.log(
      `probes under a flood: HEALTH_PORT p50 ${Math.round(sorted[PROBES / 2])} ms, max ${Math.round(sorted[PROBES - 1])} ms; ` +
        `API port max ${Math.round(Math.max(...apiMs))} ms; the flood's answers ${JSON.stringify(floodAnswers)}`,
    );
    // A flood the server served: every client answered, every answer a 200, no connection failed.
    expect(Object.keys(floodAnswers)).toEqual(['200']);
    expect(floodAnswers['200']).toBeGreaterThanOrEqual(BUSY_CLIENTS + CONNECTING_CLIENTS);
    expect(sorted[Math.ceil(0.95 * PROBES) - 1]).toBeLessThan(PROBE_WITHIN_MS);
    expect(server.alive).toBe(true);
  });
});

const lookupPath = (i: number) => `/v1/titles/${SERVED_IDS[i % SERVED_IDS.length]}`;

/** One GET on a new connection, as a probe: its status and ms to the whole answer. */
function send(port: number, path: string) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    }).on('error', reject);
  });
}
