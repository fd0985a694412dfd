/** The response envelopes of the contract; controllers build every success body here. */

export interface RequestMeta {
  request_id: string;
}

export interface PageMeta extends RequestMeta {
  page: number;
  per_page: number;
  total_results: number;
  total_pages: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
}

export function pageEnvelope<T>(page: Page<T>, requestId: string): { data: T[]; meta: PageMeta } {
  return {
    data: page.items,
    meta: {
      request_id: requestId,
      page: page.page,
      per_page: page.perPage,
      total_results: page.total,
      total_pages: Math.ceil(page.total / page.perPage),
    },
  };
}

export function itemEnvelope<T>(item: T, requestId: string): { data: [T]; meta: RequestMeta } {
  return { data: [item], meta: { request_id: requestId } };
}

/** Offset of a one-based page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
