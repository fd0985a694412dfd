/**
 * The response envelopes of the contract; controllers build every success body here. The catalog's
 * items arrive as JSON text already (each title is serialized once per catalog version), so the
 * envelopes are written as text around them, byte for byte what JSON.stringify would make of the
 * same envelope object.
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

/** One page of results: its items as one JSON array text. */
export interface PageJson {
  itemsJson: string;
  page: number;
  perPage: number;
  total: number;
}

export function pageMeta(page: Omit<PageJson, 'itemsJson'>, requestId: string): PageMeta {
  return {
    request_id: requestId,
    page: page.page,
    per_page: page.perPage,
    total_results: page.total,
    total_pages: Math.ceil(page.total / page.perPage),
  };
}

/** `{"data":[...items],"meta":{...}}` as text. */
export function pageEnvelopeJson(page: PageJson, requestId: string): string {
  return `{"data":${page.itemsJson},"meta":${JSON.stringify(pageMeta(page, requestId))}}`;
}

/** `{"data":[item],"meta":{"request_id":...}}` as text, `itemJson` being the item's JSON text. */
export function itemEnvelopeJson(itemJson: string, requestId: string): string {
  return `{"data":[${itemJson}],"meta":{"request_id":${JSON.stringify(requestId)}}}`;
}

/** Items' JSON texts as one JSON array text. */
export function jsonArray(itemTexts: readonly string[]): string {
  return `[${itemTexts.join(',')}]`;
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
