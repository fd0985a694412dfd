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
 * A cached answer's UTF-8 bytes held one byte per character of a string (Node's `latin1` encoding,
 * which writes each character as the one byte it holds). Node writes a string answer with its status
 * line and headers in one write, where bytes go out as a two-piece `writev` beside the header text;
 * V8 keeps such a string at one byte a character whatever the text says, so it takes what the bytes
 * did and the caches' weighing stays true (bench/RESULTS.md, the cached lookup).
 */
export class ByteString {
  constructor(readonly bytes: string) {}

  get byteLength(): number {
    return this.bytes.length;
  }
}

/** Printable ASCII only: its UTF-8 bytes are its characters. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A cached answer's envelope, built once per answer: all of it but `meta.request_id`, the one field
 * that differs per request, which `withRequestId` writes in. Equal byte for byte to what
 * JSON.stringify makes of the same object. On Node 24 a cached search or list page costs 0.73–0.96
 * of the CPU it did when its envelope was built per request (bench/RESULTS.md).
 */
export class EnvelopeBytes {
  /** The UTF-8 bytes before and after the request id, one per character (`ByteString`). */
  private readonly head: string;
  private readonly tail: string;

  private constructor(bytes: Buffer, idAt: number) {
    this.head = bytes.toString('latin1', 0, idAt);
    this.tail = bytes.toString('latin1', idAt);
  }

  /** `{"data":[item],"meta":{"request_id":…}}`, `itemJson` being the item's JSON text. */
  static item(itemJson: string): EnvelopeBytes {
    const bytes = utf8Of([ITEM_HEAD, itemJson, ITEM_TAIL, '}}']);
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
      parts.push(typeof item === 'string' ? item : item.itemBytes());
    });
    parts.push(ITEM_TAIL);
    const idAt = utf8Length(parts);
    parts.push(
      `,"page":${fields.page},"per_page":${fields.per_page},` +
        `"total_results":${fields.total_results},"total_pages":${fields.total_pages}}}`,
    );
    return new EnvelopeBytes(utf8Of(parts), idAt);
  }

  /** Its length in UTF-8 bytes without a request id: what a cache holds. */
  get byteLength(): number {
    return this.head.length + this.tail.length;
  }

  /** The item of an envelope `item` made, as UTF-8 bytes. */
  itemBytes(): Uint8Array {
    return Buffer.from(this.head.slice(ITEM_HEAD.length, this.head.length - ITEM_TAIL.length), 'latin1');
  }

  /** The whole answer to one request: the envelope with the request's id. */
  withRequestId(requestId: string): ByteString {
    const id = JSON.stringify(requestId);
    const idBytes = PRINTABLE_ASCII.test(id) ? id : Buffer.from(id, 'utf8').toString('latin1');
    return new ByteString(this.head + idBytes + this.tail);
  }
}

function utf8Length(parts: ReadonlyArray<string | Uint8Array>): number {
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  return length;
}

/** Parts as one run of UTF-8 bytes. */
function utf8Of(parts: ReadonlyArray<string | Uint8Array>): Buffer {
  const bytes = Buffer.allocUnsafe(utf8Length(parts));
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
