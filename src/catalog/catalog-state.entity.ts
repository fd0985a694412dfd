import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The single row describing the live catalog; rewritten by every ingest in its transaction. */
@Entity({ name: 'catalog_state' })
export class CatalogStateEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ name: 'catalog_version', type: 'text', nullable: true })
  catalogVersion!: string | null;

  /** Committed loads so far: with the label, the version caches and ETags are keyed by. */
  @Column({ name: 'load_number', type: 'bigint', default: 0 })
  loadNumber!: string;

  @Column({ name: 'ingested_at', type: 'timestamptz', nullable: true })
  ingestedAt!: Date | null;

  @Column({ name: 'enrichment_complete', type: 'boolean' })
  enrichmentComplete!: boolean;

  @Column({ name: 'title_count', type: 'integer' })
  titleCount!: number;

  @Column({ name: 'movie_count', type: 'integer' })
  movieCount!: number;

  @Column({ name: 'series_count', type: 'integer' })
  seriesCount!: number;
}
