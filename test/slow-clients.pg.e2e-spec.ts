import { type Socket, connect } from 'node:net';
import { parseAnswer } from './support/raw-http';
import { ServerProcess } from './support/server-process';
import { SERVED_IDS, seedServedCatalog } from './support/served-catalog';
import { type TestDatabase, createTestDatabase } from './support/test-database';
import { sleep } from './support/timing';
import { freePort } from './support/free-port';

/** Silent connections: 300 in CI; `SLOW_SILENT=2000` for the heavy variant. */
const SILENT = Number(process.env.SLOW_SILENT ?? 300);
const SLOWLORIS = 30;
const KEPT_ALIVE = 50;
/**
 * A generous bound that still tells the server's timeouts from Node's defaults: a head must arrive
 * within 10 s and Node checks every 30 s, so ours close a connection within 40 s; Node's own 60 s
 * head timeout and the default 65 s keep-alive (KEEP_ALIVE_TIMEOUT_MS) would not.
 */
const ALL_CLOSED_WITHIN_MS = 50_000;
const PROMPT_MS = 5_000;

type Kind = 'silent' | 'slowloris' | 'kept-alive';
interface Held {
  kind: Kind;
  socket: Socket;
  openedAt: number;
  closedAt: number | null;
  received: Buffer[];
}

/**
 * Hundreds of idle connections and slowloris clients (a header line a
 * second) neither stop normal requests from being answered promptly nor stay open: the server's
 * timeouts close them, with the 408 envelope where a request was started or awaited.
 */
describe('slow and idle clients against the built server', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
    ({ key } = await seedServedCatalog(database.config));
    // The keep-alive timeout is the one connection timeout with a variable; it is set small here.
    server = await ServerProcess.start(await freePort(), {
      DATABASE_URL: database.config.url,
      KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  function hold(kind: Kind): Promise<Held> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: server.port });
      const held: Held = { kind, socket, openedAt: Date.now(), closedAt: null, received: [] };
      let lines = 0;
      const drip = setInterval(() => socket.write(`X-Slow-${lines}: ${lines++}\r\n`), 1_000);
      if (kind !== 'slowloris') clearInterval(drip);
      socket.on('data', (chunk: Buffer) => held.received.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        held.closedAt = Date.now();
      });
      socket.once('connect', () => {
        held.openedAt = Date.now();
        if (kind === 'slowloris') socket.write(`GET /v1/movies?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
        if (kind === 'kept-alive') {
          socket.write(
            `GET /v1/titles/${SERVED_IDS[0]} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
              `Authorization: Bearer ${key}\r\nConnection: keep-alive\r\n\r\n`,
          );
        }
        resolve(held);
      });
      socket.once('error', reject);
    });
  }

  it(`closes ${SILENT} silent, ${SLOWLORIS} slowloris and ${KEPT_ALIVE} idle keep-alive connections while serving promptly`, async () => {
    // Opened 100 at a time, within the listen backlog (511): connections the kernel turned away
    // would be retried by the client seconds later and measured from then.
    const kinds: Kind[] = [
      ...Array<Kind>(SILENT).fill('silent'),
      ...Array<Kind>(SLOWLORIS).fill('slowloris'),
      ...Array<Kind>(KEPT_ALIVE).fill('kept-alive'),
    ];
    const held: Held[] = [];
    for (let i = 0; i < kinds.length; i += 100) {
      held.push(...(await Promise.all(kinds.slice(i, i + 100).map((kind) => hold(kind)))));
    }
    const started = Date.now();
    const normal: Array<{ status: number; ms: number }> = [];
    try {
      // Normal clients, one request at a time on a new connection, until every held one is closed.
      while (held.some((h) => h.closedAt === null) && Date.now() - started < ALL_CLOSED_WITHIN_MS) {
        const sent = Date.now();
        const answer = await server.get(`/v1/titles/${SERVED_IDS[normal.length % SERVED_IDS.length]}`, {
          Authorization: `Bearer ${key}`,
        });
        normal.push({ status: answer.status, ms: Date.now() - sent });
        await sleep(200);
      }
    } finally {
      for (const h of held) h.socket.destroy();
    }

    const lingering = held.filter(
      (h) => h.closedAt === null || h.closedAt - h.openedAt > ALL_CLOSED_WITHIN_MS,
    );
    expect(lingering.map((h) => ({ kind: h.kind, openMs: (h.closedAt ?? Date.now()) - h.openedAt }))).toEqual(
      [],
    );
    expect(normal.filter((n) => n.status !== 200 || n.ms > PROMPT_MS)).toEqual([]);
    expect(normal.length).toBeGreaterThan(10);
    for (const h of held) {
      const answer = parseAnswer(Buffer.concat(h.received), { closed: true });
      if (h.kind === 'kept-alive') {
        // Its request was answered; then the idle connection was closed without another word.
        expect({ kind: h.kind, status: answer?.status }).toEqual({ kind: h.kind, status: 200 });
        expect(
          Buffer.concat(h.received)
            .toString('latin1')
            .match(/HTTP\/1\.1 /g),
        ).toHaveLength(1);
      } else {
        const body =
          answer && (JSON.parse(answer.body) as { error?: { code?: string; request_id?: string } });
        expect({ kind: h.kind, status: answer?.status, code: body?.error?.code }).toEqual({
          kind: h.kind,
          status: 408,
          code: 'VALIDATION_ERROR',
        });
        expect(body?.error?.request_id).toBe(answer?.headers['x-request-id']);
      }
    }
    const closedAfter = (kind: Kind) => {
      const ms = held.filter((h) => h.kind === kind).map((h) => (h.closedAt ?? 0) - h.openedAt);
      return `${(Math.min(...ms) / 1000).toFixed(1)}–${(Math.max(...ms) / 1000).toFixed(1)} s`;
    };
    const latencies = normal.map((n) => n.ms).sort((a, b) => a - b);
    console.info(
      `slow clients: ${SILENT} silent closed after ${closedAfter('silent')}, ${SLOWLORIS} slowloris after ` +
        `${closedAfter('slowloris')}, ${KEPT_ALIVE} idle keep-alive after ${closedAfter('kept-alive')}; ` +
        `${normal.length} normal requests meanwhile, all 200, median ${latencies[Math.floor(latencies.length / 2)]} ms, ` +
        `slowest ${latencies[latencies.length - 1]} ms`,
    );
  }, 120_000);
});
