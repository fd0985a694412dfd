import { isOneByteText } from './cache/versioned-cache';

/**
 * The contract's envelopes, written around items already serialized; the result must equal byte
 * for byte what JSON.stringify would make of the same object.
 */

/** The page bounds of every paged route: `page` and `limit` (results per page) at most these. */
export const MAX_PAGE = 1_000_000;
export const MAX_PER_PAGE = 20;

export interface RequestMeta {
  request_id: string;
}

export interface PageMeta extends RequestMeta {
  page: number;
  per_page: number;
  total_results: number;
  total_pages: number;
}

/** The page fields of `meta` beside the request id. */
export function pageMeta(page: { page: number; perPage: number; total: number }): PageFields {
  return {
    page: page.page,
    per_page: page.perPage,
    total_results: page.total,
    total_pages: Math.ceil(page.total / page.perPage),
  };
}

export type PageFields = Omit<PageMeta, keyof RequestMeta>;

const ITEM_HEAD = '{"data":[';
const ITEM_TAIL = '],"meta":{"request_id":';

/**
 * Envelopes of at most this many UTF-8 bytes (a title's, a short page) whose characters are all
 * Latin-1 are held and sent as text: Node then writes the status line, the headers and the body as
 * one string, where bytes go out as a two-piece `writev` (a cached lookup at 0.8 of the CPU, Node
 * 24). The rest stay bytes: text costs a UTF-8 encoding per request, which on a 14 KB page costs more
 * than it saves, and V8 would keep wider text at two bytes a character, more than the caches weigh
 * (bench/RESULTS.md, the cached lookup).
 */
export const TEXT_ANSWER_MAX_BYTES = 2048;

/** A cached answer written as text, with its length in UTF-8 bytes (its Content-Length). */
export class TextAnswer {
  constructor(
    readonly text: string,
    readonly byteLength: number,
  ) {}
}

/** One request's cached answer as the adapter sends it: UTF-8 bytes, or text. */
export type CachedAnswer = Uint8Array | TextAnswer;

/** The envelope but its request id: the text before and after it, or the bytes with where it goes. */
type HeldEnvelope =
  | { kind: 'text'; head: string; tail: string; byteLength: number }
  | { kind: 'bytes'; bytes: Buffer; idAt: number };

/**
 * A cached answer's envelope, built once per answer: all of it but `meta.request_id`, the one field
 * that differs per request, which `withRequestId` writes in. Equal byte for byte to what
 * JSON.stringify makes of the same object. On Node 24 a cached search or list page costs 0.73–0.96
 * of the CPU it did when its envelope was built per request (bench/RESULTS.md).
 */
export class EnvelopeBytes {
  private readonly held: HeldEnvelope;

  /** `bytes`: the envelope without the request id, which goes in at `idAt`. */
  private constructor(bytes: Buffer, idAt: number) {
    this.held = heldEnvelope(bytes, idAt);
  }

  /** `{"data":[item],"meta":{"request_id":…}}`, `itemJson` being the item's JSON text. */
  static item(itemJson: string): EnvelopeBytes {
    const bytes = ownUtf8([ITEM_HEAD, itemJson, ITEM_TAIL, '}}']);
    return new EnvelopeBytes(bytes, bytes.length - 2);
  }

  /**
   * `{"data":[...items],"meta":{"request_id":…,"page":…,…}}`, each item its JSON text or the
   * envelope `item` made of it.
   */
  static page(items: ReadonlyArray<string | EnvelopeBytes>, fields: PageFields): EnvelopeBytes {
    const parts: Array<string | Uint8Array> = [ITEM_HEAD];
    items.forEach((item, i) => {
      if (i > 0) parts.push(',');
      parts.push(typeof item === 'string' ? item : item.itemPart());
    });
    parts.push(ITEM_TAIL);
    const idAt = utf8Length(parts);
    parts.push(
      `,"page":${fields.page},"per_page":${fields.per_page},` +
        `"total_results":${fields.total_results},"total_pages":${fields.total_pages}}}`,
    );
    return new EnvelopeBytes(ownUtf8(parts), idAt);
  }

  /** Its length in UTF-8 bytes without a request id: what a cache holds. */
  get byteLength(): number {
    return this.held.kind === 'text' ? this.held.byteLength : this.held.bytes.length;
  }

  /** The item of an envelope `item` made: its JSON text, or its UTF-8 bytes (a view, not a copy). */
  itemPart(): string | Uint8Array {
    const held = this.held;
    if (held.kind === 'text') return held.head.slice(ITEM_HEAD.length, held.head.length - ITEM_TAIL.length);
    return held.bytes.subarray(ITEM_HEAD.length, held.idAt - ITEM_TAIL.length);
  }

  /**
   * The whole answer to one request: the envelope with the request's id. Bytes are a plain
   * `Uint8Array`, not a Buffer: Nest tells a returned object from a stream by stringifying its
   * class's source (`isPlainObject`), which Buffer's is long enough to cost ~1.4 µs per answer (a
   * lookup's profile).
   */
  withRequestId(requestId: string): CachedAnswer {
    const id = JSON.stringify(requestId);
    const idLength = Buffer.byteLength(id);
    const held = this.held;
    if (held.kind === 'text') return new TextAnswer(held.head + id + held.tail, held.byteLength + idLength);
    const answer = Buffer.allocUnsafe(held.bytes.length + idLength);
    held.bytes.copy(answer, 0, 0, held.idAt);
    answer.write(id, held.idAt);
    held.bytes.copy(answer, held.idAt + idLength, held.idAt);
    return new Uint8Array(answer.buffer, answer.byteOffset, answer.length);
  }
}

/** The form an envelope is held in: text where `TEXT_ANSWER_MAX_BYTES` says, otherwise its bytes. */
function heldEnvelope(bytes: Buffer, idAt: number): HeldEnvelope {
  if (bytes.length <= TEXT_ANSWER_MAX_BYTES) {
    const head = bytes.toString('utf8', 0, idAt);
    const tail = bytes.toString('utf8', idAt);
    if (isOneByteText(head) && isOneByteText(tail))
      return { kind: 'text', head, tail, byteLength: bytes.length };
  }
  return { kind: 'bytes', bytes, idAt };
}

function utf8Length(parts: ReadonlyArray<string | Uint8Array>): number {
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  return length;
}

/**
 * Parts as one run of UTF-8 bytes in a buffer of their own (not a slice of Node's shared pool, which
 * a kept answer would hold whole).
 */
function ownUtf8(parts: ReadonlyArray<string | Uint8Array>): Buffer {
  const bytes = Buffer.from(new ArrayBuffer(utf8Length(parts)));
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') at += bytes.write(part, at);
    else {
      bytes.set(part, at);
      at += part.byteLength;
    }
  }
  return bytes;
}

/** `{"data":[...items],"meta":{"request_id":...}}` as text: a list answered whole, without pages. */
export function listEnvelopeJson(items: readonly unknown[], requestId: string): string {
  return JSON.stringify({ data: items, meta: { request_id: requestId } });
}

/** The rows of one page: `limit` rows from `offset`. */
export interface Slice {
  limit: number;
  offset: number;
}

/** The slice of a one-based page. */
export function pageSlice(page: number, perPage: number): Slice {
  return { limit: perPage, offset: pageOffset(page, perPage) };
}

/** Offset of a one-based page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
