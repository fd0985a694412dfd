/**
 * What the contract's answer headers cost by themselves: two plain `node:http` servers answer the same
 * 860-byte title envelope, one with the headers of a cached lookup's 200 (the contract's, as the
 * service writes them), one with only Content-Type and ETag (the floor in `ab-lookup.ts` sends
 * Content-Type alone; the ETag is one every cached answer carries), loaded in alternating rounds;
 * prints each one's CPU µs per request (medians)
 * and the per-round ratios. No NestJS, Express or database: the difference is Node's header work and
 * the larger write.
 *
 *   npx ts-node --transpile-only bench/header-cost.ts [--node PATH] [--rounds 7] [--seconds 3]
 */
import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { LOOKUP_HEADERS } from './lookup-headers';
import { median } from './median';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '3' },
    'base-port': { type: 'string', default: '4601' },
  },
});

const FLOOR_HEADERS = LOOKUP_HEADERS.filter(([name]) => name === 'Content-Type' || name === 'ETag');

/** The server, run by `node -e` (plain JavaScript, as `node dist/main.js` runs). */
const SERVER = `
const http = require('node:http');
const headers = JSON.parse(process.argv[1]);
const body = Buffer.from(JSON.stringify({ data: [{ title: 'Amélie', text: 'x'.repeat(800) }], meta: { request_id: 'r' } }));
http.createServer((req, res) => {
  for (const [name, value] of headers) res.setHeader(name, value);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.send({ type: 'ready' }));
process.on('message', () => { const cpu = process.cpuUsage(); process.send({ type: 'cpu', micros: cpu.user + cpu.system }); });
process.on('disconnect', () => process.exit(0));
`;

interface Server {
  label: string;
  child: ChildProcess;
  url: string;
}

function start(
  label: string,
  headers: ReadonlyArray<readonly [string, string]>,
  port: number,
): Promise<Server> {
  const child = spawn(values.node!, ['-e', SERVER, JSON.stringify(headers), String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
    child.once('message', () => resolve({ label, child, url: `http://127.0.0.1:${port}/` }));
  });
}

function cpuMicros(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (m: { micros: number }) => resolve(m.micros));
    server.child.send({ type: 'cpu' });
  });
}

async function microsPerRequest(server: Server): Promise<number> {
  await autocannon({ url: server.url, connections: 50, duration: 1 });
  const before = await cpuMicros(server);
  const result = await autocannon({ url: server.url, connections: 50, duration: Number(values.seconds) });
  return ((await cpuMicros(server)) - before) / result.requests.total;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const port = Number(values['base-port']);
  const servers = [
    await start('floor headers', FLOOR_HEADERS, port),
    await start('contract headers', LOOKUP_HEADERS, port + 1),
  ];
  const samples: number[][] = [[], []];
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (let k = 0; k < 2; k++) {
        const i = (round + k) % 2;
        samples[i].push(await microsPerRequest(servers[i]));
      }
    }
  } finally {
    for (const server of servers) server.child.disconnect();
  }
  const ratios = samples[1].map((micros, i) => micros / samples[0][i]);
  console.log(
    JSON.stringify(
      {
        node: values.node,
        rounds: Number(values.rounds),
        cpuMicrosPerRequest: {
          [servers[0].label]: round1(median(samples[0])),
          [servers[1].label]: round1(median(samples[1])),
        },
        contractOverFloorPerRound: ratios.map((ratio) => Math.round(ratio * 100) / 100),
        contractOverFloorMedian: Math.round(median(ratios) * 100) / 100,
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
