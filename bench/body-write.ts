/**
 * How a cached answer's body is best handed to Node: as UTF-8 bytes with the request id copied in,
 * as text (`head + id + tail`, encoded per request), or as a byte string (the UTF-8 bytes one per
 * character, `head + id + tail` written as `latin1`, what `EnvelopeBytes.withRequestId` returns). A
 * string goes out with the header block in one write, bytes as a two-chunk `writev`. Three plain
 * `node:http` servers answer the same envelopes, one per way, with a cached lookup's headers written
 * by one `writeHead` (as `endAnswer` does); each body size and character class is its own path,
 * loaded in rotating order each round. Prints each way's CPU µs per request (medians) and the
 * per-round ratios to bytes. No NestJS, Express or database: the difference is the body's copy and
 * Node's write.
 *
 *   npx ts-node --transpile-only bench/body-write.ts [--node PATH] [--rounds 5] [--seconds 2] \
 *     [--sizes 800,2000,4000,8000,14000] [--chars ascii,latin1,wide]
 */
import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { LOOKUP_HEADERS } from './lookup-headers';
import { median } from './median';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    sizes: { type: 'string', default: '800,2000,4000,8000,14000' },
    chars: { type: 'string', default: 'ascii,latin1,wide' },
    'base-port': { type: 'string', default: '4621' },
  },
});

/** A cached lookup's headers in `writeHead`'s flat form (its request id is a fixed one). */
const HEADERS = LOOKUP_HEADERS.flat();

/**
 * The server, run by `node -e` (plain JavaScript, as `node dist/main.js` runs): `/<chars>/<size>`
 * answers an envelope of about that many UTF-8 bytes, with a fresh request id written in per request.
 * `ascii`: only ASCII; `latin1`: a few é (V8 keeps the text one byte per character); `wide`: a few
 * em dashes (V8 keeps it two bytes per character).
 */
const SERVER = `
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const [way, headersJson, port] = process.argv.slice(1);
const headers = JSON.parse(headersJson);
const marks = { ascii: 'a', latin1: '\\u00e9', wide: '\\u2014' };
const answers = new Map();
function answerFor(path) {
  let answer = answers.get(path);
  if (answer) return answer;
  const [, chars, size] = path.split('/');
  const text = ('Title ' + marks[chars] + ' ').repeat(Math.ceil(Number(size) / 9)).slice(0, Number(size));
  const head = '{"data":[{"title":' + JSON.stringify(text) + '}],"meta":{"request_id":';
  const tail = '}}';
  const bytes = Buffer.from(head + tail);
  const idAt = Buffer.byteLength(head);
  answer = { head, tail, bytes, idAt, headBytes: bytes.toString('latin1', 0, idAt), tailBytes: bytes.toString('latin1', idAt) };
  answers.set(path, answer);
  return answer;
}
http.createServer((req, res) => {
  const answer = answerFor(req.url);
  const id = JSON.stringify(randomUUID());
  if (way === 'text') {
    res.writeHead(200, [...headers, 'Content-Length', answer.bytes.length + id.length]);
    res.end(answer.head + id + answer.tail);
  } else if (way === 'bytestring') {
    res.writeHead(200, [...headers, 'Content-Length', answer.bytes.length + id.length]);
    res.end(answer.headBytes + id + answer.tailBytes, 'latin1');
  } else {
    const body = Buffer.allocUnsafe(answer.bytes.length + id.length);
    answer.bytes.copy(body, 0, 0, answer.idAt);
    body.write(id, answer.idAt);
    answer.bytes.copy(body, answer.idAt + id.length, answer.idAt);
    res.writeHead(200, [...headers, 'Content-Length', body.length]);
    res.end(new Uint8Array(body.buffer, body.byteOffset, body.length));
  }
}).listen(Number(port), '127.0.0.1', () => process.send({ type: 'ready' }));
process.on('message', () => { const cpu = process.cpuUsage(); process.send({ type: 'cpu', micros: cpu.user + cpu.system }); });
process.on('disconnect', () => process.exit(0));
`;

const WAYS = ['bytes', 'text', 'bytestring'] as const;

interface Server {
  way: (typeof WAYS)[number];
  child: ChildProcess;
  port: number;
}

function start(way: Server['way'], port: number): Promise<Server> {
  const child = spawn(values.node!, ['-e', SERVER, way, JSON.stringify(HEADERS), String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${way} exited with ${code}`)));
    child.once('message', () => resolve({ way, child, port }));
  });
}

function cpuMicros(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (m: { micros: number }) => resolve(m.micros));
    server.child.send({ type: 'cpu' });
  });
}

async function microsPerRequest(server: Server, path: string): Promise<number> {
  const url = `http://127.0.0.1:${server.port}${path}`;
  await autocannon({ url, connections: 50, duration: 1 });
  const before = await cpuMicros(server);
  const result = await autocannon({ url, connections: 50, duration: Number(values.seconds) });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.way} ${path}: failed requests`);
  return ((await cpuMicros(server)) - before) / result.requests.total;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const port = Number(values['base-port']);
  const servers = await Promise.all(WAYS.map((way, i) => start(way, port + i)));
  const paths = values
    .chars!.split(',')
    .flatMap((chars) => values.sizes!.split(',').map((size) => `/${chars}/${size}`));
  const samples = new Map(
    paths.map((path) => [
      path,
      Object.fromEntries(WAYS.map((way) => [way, [] as number[]])) as Record<Server['way'], number[]>,
    ]),
  );
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [i, path] of paths.entries()) {
        for (let k = 0; k < servers.length; k++) {
          const server = servers[(round + i + k) % servers.length];
          samples.get(path)![server.way].push(await microsPerRequest(server, path));
        }
      }
    }
  } finally {
    for (const server of servers) server.child.disconnect();
  }
  const report = Object.fromEntries(
    [...samples].map(([path, byWay]) => [
      path,
      {
        cpuMicrosPerRequest: Object.fromEntries(WAYS.map((way) => [way, round2(median(byWay[way]))])),
        overBytesMedian: Object.fromEntries(
          WAYS.slice(1).map((way) => [
            way,
            round2(median(byWay[way].map((micros, i) => micros / byWay.bytes[i]))),
          ]),
        ),
      },
    ]),
  );
  console.log(JSON.stringify({ node: values.node, rounds: Number(values.rounds), paths: report }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
