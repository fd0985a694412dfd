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

/**
 * A page's items as UTF-8 bytes of one JSON array: encoding a two-byte string per answer cost
 * 16–44 µs (bench/RESULTS.md), so a cached page is encoded once.
 */
export interface PageJson {
  items: Uint8Array;
  page: number;
  perPage: number;
  total: number;
}

export function pageMeta(page: Omit<PageJson, 'items'>, requestId: string): PageMeta {
  return {
    request_id: requestId,
    page: page.page,
    per_page: page.perPage,
    total_results: page.total,
    total_pages: Math.ceil(page.total / page.perPage),
  };
}

const PAGE_DATA_START = Buffer.from('{"data":');

/** `{"data":[...items],"meta":{...}}` as UTF-8 bytes. */
export function pageEnvelopeBytes(page: PageJson, requestId: string): Buffer {
  const rest = Buffer.from(`,"meta":${JSON.stringify(pageMeta(page, requestId))}}`);
  return Buffer.concat([PAGE_DATA_START, page.items, rest]);
}

/** `{"data":[item],"meta":{"request_id":...}}` as text, `itemJson` being the item's JSON text. */
export function itemEnvelopeJson(itemJson: string, requestId: string): string {
  return `{"data":[${itemJson}],"meta":{"request_id":${JSON.stringify(requestId)}}}`;
}

/** `{"data":[...items],"meta":{"request_id":...}}` as text: a list answered whole, without pages. */
export function listEnvelopeJson(items: readonly unknown[], requestId: string): string {
  return JSON.stringify({ data: items, meta: { request_id: requestId } });
}

/** Items' JSON texts as one JSON array text. */
export function jsonArray(itemTexts: readonly string[]): string {
  return `[${itemTexts.join(',')}]`;
}

const UTF8 = new TextEncoder();

/**
 * Items' JSON texts as the UTF-8 bytes of one JSON array text, in a buffer of their own (not a
 * slice of Node's shared pool, which a kept page would hold whole).
 */
export function jsonArrayBytes(itemTexts: readonly string[]): Uint8Array {
  return UTF8.encode(jsonArray(itemTexts));
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
