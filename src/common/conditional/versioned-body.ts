/** A value read from one catalog version (null: no catalog, or the version is not known). */
export interface Versioned<T> {
  version: string | null;
  value: T;
}

/**
 * A handler's answer together with the catalog version its data was read from. The conditional-GET
 * interceptor turns the version into the ETag and sends `body`; without a version no ETag is sent.
 */
export class VersionedBody<T = unknown> {
  constructor(
    readonly version: string | null,
    readonly body: T,
  ) {}

  static of<V, B>(read: Versioned<V>, envelope: (value: V) => B): VersionedBody<B> {
    return new VersionedBody(read.version, envelope(read.value));
  }
}
