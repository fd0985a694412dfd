import { Injectable } from '@nestjs/common';
import { announceChange } from '../../database/change-feed';
import { Database, type SqlExecutor } from '../../database/database';
import { CatalogStateProvider } from '../catalog-state.provider';
import { DEFAULT_PAIR_MIN_TITLES, SEARCH_TABLES, buildSearchIndex } from '../search/search-index';
import {
  CatalogLoadError,
  type CatalogLoadOptions,
  type CatalogLoadResult,
  type CatalogSource,
} from './catalog-load';
import { mergeStagedTitles } from './merge';
import {
  DROP_STAGING_SQL,
  combineStagedTitles,
  createStagingTables,
  stageEnrichment,
  stageRatings,
  stageTitles,
} from './staging';

/** Memory for the load's sorts on PostgreSQL (the server's, not this process's). */
const LOAD_WORK_MEM = '512MB';
/** Fixed: one catalog load at a time per database. */
const LOAD_LOCK_KEY = 7_301_114_521;

/**
 * Replaces the live catalog: stage, then merge, rebuild search and announce the change in one
 * transaction, so readers switch at the commit. See docs/search.md, What a load does.
 */
@Injectable()
export class CatalogWriter {
  constructor(
    private readonly db: Database,
    private readonly state: CatalogStateProvider,
  ) {}

  replaceCatalog(source: CatalogSource, options: CatalogLoadOptions = {}): Promise<CatalogLoadResult> {
    return this.db.session(async (session) => {
      const [lock] = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        LOAD_LOCK_KEY,
      ]);
      if (!lock?.locked) throw new CatalogLoadError('Another catalog load is running on this database.');
      try {
        // The pool's statement timeout guards API queries; a full-catalog merge may take minutes.
        await session.query('SET statement_timeout = 0');
        // Ranked lists are aggregated from sorted input: no parallel partial aggregates. The sorts
        // of a 1.3M-title load fit in memory on a server (the embedded database keeps its default).
        await session.query('SET max_parallel_workers_per_gather = 0');
        if (this.db.engine === 'postgres') await session.query(`SET work_mem = '${LOAD_WORK_MEM}'`);
        await createStagingTables(session);
        await stageTitles(session, source.titles);
        if (source.ratings) await stageRatings(session, source.ratings);
        if (source.enrichments) await stageEnrichment(session, source.enrichments);
        const pairMinTitles = options.pairMinTitles ?? DEFAULT_PAIR_MIN_TITLES;
        options.onPhase?.('merge');
        await combineStagedTitles(session);
        const result = await session.transaction(async (tx) => {
          const merged = await mergeStagedTitles(tx, options.catalogVersion ?? null);
          options.onPhase?.('search-index');
          await buildSearchIndex(tx, pairMinTitles);
          // Delivered to every listening server at the commit, not before.
          await announceChange(tx, 'catalog');
          return merged;
        });
        // Answers from this process switch at once; other processes when they hear the notice (or
        // within their next state poll without a change feed).
        this.state.invalidate();
        options.onPhase?.('statistics');
        await refreshStatistics(session);
        return result;
      } catch (error) {
        throw translateLoadError(error);
      } finally {
        await session.query(DROP_STAGING_SQL).catch(() => undefined);
        for (const setting of ['statement_timeout', 'max_parallel_workers_per_gather', 'work_mem']) {
          await session.query(`RESET ${setting}`).catch(() => undefined);
        }
        await session.query('SELECT pg_advisory_unlock($1)', [LOAD_LOCK_KEY]).catch(() => undefined);
      }
    });
  }
}

/**
 * Fresh planner statistics for every table the load changed (autovacuum may be off or late), and a
 * visibility map for the rebuilt search tables. Outside the transaction: VACUUM cannot run inside one.
 */
async function refreshStatistics(session: SqlExecutor): Promise<void> {
  await session.query(`VACUUM (ANALYZE) ${SEARCH_TABLES.join(', ')}`);
  await session.query('ANALYZE titles, catalog_state');
}

function translateLoadError(error: unknown): unknown {
  const pgError = error as { code?: string; detail?: string; message?: string };
  if (pgError?.code === '23505') {
    return new CatalogLoadError(
      `Duplicate title id in the catalog input: ${pgError.detail ?? pgError.message}`,
    );
  }
  return error;
}
