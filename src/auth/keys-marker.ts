import { Injectable } from '@nestjs/common';

/**
 * A re-read of the recently changed keys covers this much more than the time since the last good
 * one, on the database clock: `updated_at` is its transaction's start, so a change that commits late
 * still falls inside. The keys' marker watches the same stretch.
 */
export const KEY_CHANGE_OVERLAP_S = 10;

/**
 * What the API keys table holds, in two numbers that move with every committed change: how many
 * keys there are (a deletion), and a digest of the keys changed within the last
 * KEY_CHANGE_OVERLAP_S (a creation, a disable, an enable). Not max(updated_at): a change that
 * commits after a later one started has the older `updated_at` and would not move it.
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
      || disabled || ' ' || rpm || ' ' || monthly_quota || ' ' || key_hash))
      FILTER (WHERE updated_at > now() - make_interval(secs => ${KEY_CHANGE_OVERLAP_S})), 0)::text AS digest
  FROM api_keys) keys_marker`;

export function sameKeysMarker(a: KeysMarker | null, b: KeysMarker | null): boolean {
  return a !== null && b !== null && a.count === b.count && a.digest === b.digest;
}

export type KeysMarkerListener = (marker: KeysMarker, sentAt: number) => void;

/**
 * Where the keys' marker goes once read: the catalog-state poll reads it in its own statement when
 * that statement runs on the primary (one transaction a poll for both), and the key directory
 * listens, re-reading keys only when it moved.
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
