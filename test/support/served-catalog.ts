import type { DatabaseConfig } from '../../src/config/app-config';
import { cliEnvironment, runCli } from './cli';
import { FixtureFiles, basicsRow, ratingsRow } from './imdb-files';

/** Ids of the movies `seedServedCatalog` loads (`tt9100000` …). */
export const SERVED_IDS = Array.from({ length: 40 }, (_, i) => `tt${9_100_000 + i}`);

/**
 * Prepares a database for a server in a child process, as an operator would: the CLI loads a small
 * catalog (applying the migrations) and creates a key with limits no test reaches.
 */
export async function seedServedCatalog(database: DatabaseConfig): Promise<{ key: string }> {
  const env = cliEnvironment(database);
  const files = new FixtureFiles();
  try {
    const basics = files.basics(
      'basics.tsv',
      SERVED_IDS.map((id, i) =>
        basicsRow(id, i % 2 === 0 ? 'movie' : 'tvSeries', `Served Title ${i}`, { year: 2000 + (i % 20) }),
      ),
    );
    const ratings = files.ratings(
      'ratings.tsv',
      SERVED_IDS.map((id, i) => ratingsRow(id, '7.0', 100 + i)),
    );
    const ingest = await runCli(['catalog:ingest', '--basics', basics, '--ratings', ratings], env);
    if (ingest.code !== 0) throw new Error(`catalog:ingest failed: ${ingest.stderr}`);
    const created = await runCli(
      ['keys:create', '--name', 'served', '--rpm', '1000000', '--monthly-quota', '1000000000', '--json'],
      env,
    );
    if (created.code !== 0) throw new Error(`keys:create failed: ${created.stderr}`);
    return { key: (JSON.parse(created.stdout) as { key: string }).key };
  } finally {
    files.cleanup();
  }
}
