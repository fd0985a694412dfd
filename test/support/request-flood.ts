import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

/**
 * Requests that each carry client input no earlier request carried: what a replica must not keep
 * per request. Every kind is answered by the contract (404, 200, 401); none may grow the process
 * beyond its caches' byte budget.
 */
export const FLOOD_KINDS = [
  'long-ids',
  'searches',
  'list-pages',
  'unknown-keys',
  'long-keys',
  'request-ids',
] as const;
export type FloodKind = (typeof FLOOD_KINDS)[number];

/** Digits of each distinct id: `tt` + digits matches the contract's pattern, which sets no length. */
export const LONG_ID_DIGITS = 12_000;
/** The contract's longest search text. */
export const SEARCH_LENGTH = 100;
/** Characters of a forged key after its prefix: near Node's 16 KB head with the rest of a request. */
export const LONG_KEY_LENGTH = 15_600;

export interface FloodRequest {
  path: string;
  headers: Record<string, string>;
}

/** The `i`-th request of a kind: distinct from every other `i` of it. */
export function floodRequest(kind: FloodKind, i: number, key: string, knownId: string): FloodRequest {
  const bearer = { authorization: `Bearer ${key}` };
  switch (kind) {
    case 'long-ids': {
      const n = String(i);
      return { path: `/v1/titles/tt1${'0'.repeat(LONG_ID_DIGITS - 1 - n.length)}${n}`, headers: bearer };
    }
    case 'searches':
      return { path: `/v1/search?q=${encodeURIComponent(searchText(i))}`, headers: bearer };
    case 'list-pages':
      return {
        path: `/v1/${i % 2 === 0 ? 'movies' : 'series'}?page=${1 + Math.floor(i / 2)}&limit=${1 + (i % 20)}`,
        headers: bearer,
      };
    case 'unknown-keys':
      return {
        path: `/v1/titles/${knownId}`,
        headers: { authorization: `Bearer mov_live_${randomBytes(32).toString('base64url')}` },
      };
    case 'long-keys':
      return { path: `/v1/titles/${knownId}`, headers: { authorization: `Bearer ${longForgedKey(i)}` } };
    case 'request-ids':
      return { path: `/v1/titles/${knownId}`, headers: { ...bearer, 'x-request-id': requestId(i) } };
  }
}

/** A well-formed key no one holds (the format sets no upper length), LONG_KEY_LENGTH long, distinct for each `i`. */
function longForgedKey(i: number): string {
  const n = i.toString(36);
  return `mov_live_${n}${'k'.repeat(LONG_KEY_LENGTH - n.length)}`;
}

/** 100 characters of words no title has, distinct for each `i`. */
function searchText(i: number): string {
  const words: string[] = [];
  for (let k = 0; words.join(' ').length < SEARCH_LENGTH; k++) words.push(`q${i.toString(36)}w${k}`);
  return words.join(' ').slice(0, SEARCH_LENGTH);
}

/** An accepted X-Request-Id of the longest length (128 of [A-Za-z0-9._-]), distinct for each `i`. */
function requestId(i: number): string {
  const n = `r${i.toString(36)}.`;
  return (
    n +
    randomBytes(96)
      .toString('base64url')
      .slice(0, 128 - n.length)
  );
}

export interface FloodResult {
  requests: number;
  statuses: Record<string, number>;
  /** Requests that got no answer (a refused or reset connection). */
  failures: number;
  seconds: number;
}

/**
 * Sends `count` requests of `kind`, `concurrency` at a time on kept-alive connections; with `repeat`,
 * the same `repeat` inputs over and over (the load without the distinct input).
 */
export async function flood(
  port: number,
  kind: FloodKind,
  count: number,
  options: { key: string; knownId: string; concurrency?: number; offset?: number; repeat?: number },
): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 16 });
  const statuses: Record<string, number> = {};
  let failures = 0;
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const i = (options.offset ?? 0) + (options.repeat ? n % options.repeat : n);
      const { path, headers } = floodRequest(kind, i, options.key, options.knownId);
      const status = await get(port, path, headers, agent).catch(() => 0);
      if (status === 0) failures++;
      else statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  agent.destroy();
  return { requests: count, statuses, failures, seconds: (Date.now() - started) / 1000 };
}

function get(port: number, path: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** A process's resident set in bytes (Linux: /proc), or null once it has exited. */
export function residentBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's resident set every `everyMs` until stopped; the peak seen. */
export function watchResident(pid: number, everyMs = 100) {
  let peak = residentBytes(pid) ?? 0;
  const timer = setInterval(() => {
    const now = residentBytes(pid);
    if (now !== null && now > peak) peak = now;
  }, everyMs);
  return {
    get peak() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
