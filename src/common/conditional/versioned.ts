/** A value read from one catalog version (null: no catalog, or the version is not known). */
export interface Versioned<T> {
  version: string | null;
  value: T;
}
