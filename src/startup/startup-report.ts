import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app-config';
import { databaseLabel } from './database-label';

const CLI = 'node dist/cli.js';

/** What an operator needs to hear once the service is up: where, on what, and what is missing. */
export interface StartupFacts {
  url: string;
  database: string;
  embedded: boolean;
  catalogVersion: string | null;
  titleCount: number;
  keyCount: number;
}

/** The start-up lines: one that says where and what, then one per thing to do, with the command. */
export function startupMessages(facts: StartupFacts): { info: string; warnings: string[] } {
  const catalog =
    facts.catalogVersion === null
      ? 'no catalog'
      : `catalog ${facts.catalogVersion} (${facts.titleCount} titles)`;
  const warnings: string[] = [];
  const cliFirst = facts.embedded
    ? ' (stop the server first: the embedded database is one process at a time)'
    : ' (with the same DATABASE_URL)';
  if (facts.titleCount === 0) {
    warnings.push(
      `The catalog is empty; load one with: ${CLI} catalog:ingest --basics title.basics.tsv.gz --ratings title.ratings.tsv.gz [--enrichment omdb.ndjson.gz]${cliFirst}`,
    );
  }
  if (facts.keyCount === 0) {
    warnings.push(
      `No API key exists yet; create one with: ${CLI} keys:create --name NAME --rpm 600 --monthly-quota 100000${cliFirst}`,
    );
  }
  return { info: `Listening on ${facts.url}; database ${facts.database}; ${catalog}`, warnings };
}

/** What the database holds at start, read by the caller (which has the application's services). */
export type StoredFacts = Pick<StartupFacts, 'catalogVersion' | 'titleCount' | 'keyCount'>;

/** Logs the start-up lines through the application's logger, once the server listens on `address`. */
export async function reportStartup(
  address: AddressInfo,
  config: AppConfig,
  readStored: () => Promise<StoredFacts>,
): Promise<void> {
  const logger = new Logger('Startup');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  try {
    const stored = await readStored();
    const { info, warnings } = startupMessages({
      url: `${config.tls ? 'https' : 'http'}://${config.host.includes(':') ? host : config.host}:${address.port}`,
      database: databaseLabel(config.database),
      embedded: config.database.kind === 'embedded',
      catalogVersion: stored.catalogVersion,
      titleCount: stored.titleCount,
      keyCount: stored.keyCount,
    });
    logger.log(info);
    for (const warning of warnings) logger.warn(warning);
  } catch (error) {
    logger.warn({ err: error }, 'Could not read the catalog state at start');
  }
}
