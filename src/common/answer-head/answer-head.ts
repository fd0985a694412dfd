import { type OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { ByteString } from '../envelope';

/**
 * The headers the service's own steps give an answer (security headers, request id, key, limits,
 * ETag, type), held on the response and written with its status line by one `writeHead(status,
 * headers)` when a cached answer is sent (`endAnswer`). Node's `setHeader` keeps each header in a
 * lowercased dictionary that `writeHead` walks again: on Node 24 a cached answer's dozen headers
 * cost it about a tenth of its CPU that way (bench/RESULTS.md).
 *
 * Until the answer is written nothing else sees a difference: on a response of an app that
 * `holdAnswerHeaders` set up, every Node header method (`setHeader`, `getHeader`, `removeHeader`,
 * `writeHead`, ...; Express's `res.set`, `res.json`, `req.fresh` go through them) first writes the
 * held headers through, in the order they were set, so whoever reads or changes headers finds
 * exactly what eager `setHeader` calls would have left. Once a cached answer is written its headers
 * are on the wire only, as with any `writeHead(status, headers)`: `getHeader` no longer returns them.
 * The values are the service's own, valid by construction (Node checks them as it writes them).
 * Elsewhere (the health server, a bare `node:http` response) `setAnswerHeader` is `setHeader`.
 */
const HELD = Symbol('heldAnswerHeaders');
/** On the prototype of the responses whose header methods write the held headers through first. */
const HOLDS = Symbol('holdsAnswerHeaders');

/** Names and values in turn, as `writeHead` takes them. */
type Held = OutgoingHttpHeader[];
type HoldingResponse = ServerResponse & { [HELD]?: Held; [HOLDS]?: true };

/** Node's own methods, which the overrides call once the held headers are written through. */
const nodeSetHeader = ServerResponse.prototype.setHeader;
const nodeGetHeaderNames = ServerResponse.prototype.getHeaderNames;

/**
 * Every method through which Node's header list is read, changed or written out (Node's own names:
 * `getRawHeaderNames` and the `writeHeader` alias are not in its type declarations).
 */
const HEADER_METHODS = [
  'setHeader',
  'setHeaders',
  'appendHeader',
  'getHeader',
  'getHeaders',
  'getHeaderNames',
  'getRawHeaderNames',
  'hasHeader',
  'removeHeader',
  'flushHeaders',
  'writeHead',
  'writeHeader',
] as const;

/**
 * Sets up an Express app's responses to hold answer headers, through Express's documented extension
 * point for its response methods (`app.response`, "Overriding the Express API").
 */
export function holdAnswerHeaders(app: Express): void {
  const response = app.response as unknown as Record<PropertyKey, unknown>;
  const nodeResponse = ServerResponse.prototype as unknown as Record<string, unknown>;
  for (const name of HEADER_METHODS) {
    const nodeMethod = nodeResponse[name];
    if (typeof nodeMethod !== 'function') continue;
    response[name] = function writeHeldThrough(this: HoldingResponse, ...args: unknown[]): unknown {
      writeHeldHeaders(this);
      return nodeMethod.apply(this, args);
    };
  }
  response[HOLDS] = true;
}

/** `res.setHeader(name, value)`, held until the answer is written where the response allows it. */
export function setAnswerHeader(res: ServerResponse, name: string, value: string): void {
  const holding = res as HoldingResponse;
  if (holding[HOLDS] !== true || res.headersSent) {
    res.setHeader(name, value);
    return;
  }
  const held = holding[HELD];
  if (held === undefined) {
    holding[HELD] = [name, value];
    return;
  }
  // As `setHeader`: a name set again (in any case) keeps its place and takes the new value.
  for (let i = 0; i < held.length; i += 2) {
    if (sameName(held[i] as string, name)) {
      held[i] = name;
      held[i + 1] = value;
      return;
    }
  }
  held.push(name, value);
}

/**
 * Sends `body` with `statusCode`: the held headers and its Content-Length written with the status
 * line at once when no header was set any other way, otherwise through `setHeader` as usual.
 */
export function endAnswer(res: ServerResponse, statusCode: number, body: Uint8Array | ByteString): void {
  const holding = res as HoldingResponse;
  const held = holding[HELD];
  if (held !== undefined && nodeGetHeaderNames.call(res).length === 0) {
    holding[HELD] = undefined;
    held.push('Content-Length', body.byteLength);
    // Through the response's own `writeHead`, so a middleware that wraps it (on-headers) still runs.
    res.writeHead(statusCode, held);
  } else {
    res.statusCode = statusCode;
    res.setHeader('Content-Length', body.byteLength);
  }
  if (body instanceof ByteString) res.end(body.bytes, 'latin1');
  else res.end(body);
}

function writeHeldHeaders(res: HoldingResponse): void {
  const held = res[HELD];
  if (held === undefined) return;
  res[HELD] = undefined;
  for (let i = 0; i < held.length; i += 2) nodeSetHeader.call(res, held[i] as string, held[i + 1]!);
}

/** Header names compare without case; the service's own are written alike, so mostly by identity. */
function sameName(a: string, b: string): boolean {
  return a === b || (a.length === b.length && a.toLowerCase() === b.toLowerCase());
}
