import { TITLE_FIELD_READERS, type TitleRow } from './title-columns';
import type { Title } from './title';

/** The one place a Title resource is made: the contract's 22 fields, in order, per TITLE_COLUMNS. */
export function serializeTitle(row: TitleRow): Title {
  const title: Record<string, unknown> = {};
  for (const [field, nested, read] of TITLE_FIELD_READERS) {
    if (nested === null) title[field] = read(row);
    else ((title[field] ??= {}) as Record<string, unknown>)[nested] = read(row);
  }
  return title as unknown as Title;
}

/** A Title resource as its JSON text: what the caches keep and the envelopes are written around. */
export function serializeTitleJson(row: TitleRow): string {
  return JSON.stringify(serializeTitle(row));
}
