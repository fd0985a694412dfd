import { Injectable } from '@nestjs/common';

/**
 * Re-reads cover this much beyond the last good one: `updated_at` is its transaction's start, so a late
 * commit still falls inside. The marker watches the same stretch.
 */
export const KEY_CHANGE_OVERLAP_S = 10;

/**
 * Key count (deletions) and a digest of keys changed within KEY_CHANGE_OVERLAP_S. Not max(updated_at):
 * a change committing after a later one started has the older stamp and would not move it.
 */
export interface KeysMarker {
  count: number;
  digest: string;
}

/**
 * The marker as a derived table `keys_marker (count, digest)`, for a statement that reads it beside
 * something else (the catalog-state poll). One scan of the keys table, no lock.
 */
export const KEYS_MARKER_FROM = `(SELECT count(*)::int AS count,
    coalesce(sum(hashtext(id::text || ' ' || (extract(epoch FROM updated_at) * 1000000)::bigint || ' '
      || disabled || ' ' || rpm || ' ' || monthly_quota || ' ' || key_hash || ' '
      || coalesce(extract(epoch FROM expires_at)::text, '-') || ' '
      || coalesce(extract(epoch FROM previous_key_ends_at)::text, '-')))
      FILTER (WHERE updated_at > now() - make_interval(secs => ${KEY_CHANGE_OVERLAP_S})), 0)::text AS digest
  FROM api_keys) keys_marker`;

export function sameKeysMarker(a: KeysMarker | null, b: KeysMarker | null): boolean {
  return a !== null && b !== null && a.count === b.count && a.digest === b.digest;
}

export type KeysMarkerListener = (marker: KeysMarker, sentAt: number) => void;

/**
 * Where the keys' marker goes once read: the primary's state poll reads it in its own statement, and
 * the key directory re-reads keys only when it moved.
 */
@Injectable()
export class KeysMarkers {
  private readonly listeners = new Set<KeysMarkerListener>();

  /** A marker read by a statement sent at `sentAt` (on the primary). */
  observe(marker: KeysMarker, sentAt: number): void {
    for (const listener of this.listeners) listener(marker, sentAt);
  }

  subscribe(listener: KeysMarkerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
