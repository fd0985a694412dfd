/**
 * One server for `bench/admission.ts`, in its own process (the load generator must not share its
 * event loop). Modes:
 *   full               the real AppModule: API key, minute and month limits, then the handler
 *   limits-overridden  the same app with LimitsGuard overridden through the testing module
 *   bare               a NestJS-on-Express app answering a fixed 1.4 KB JSON body
 * Started with `fork()`; answers `{ type: 'stats' }` messages with its RSS, the CPU time it has used
 * and the number of SQL statements its PostgreSQL pool ran (pool "acquire" events: one per statement outside a session).
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../src/app.setup';
import { ApiKeyService } from '../src/auth/api-key.service';
import { loadConfig } from '../src/config/app-config';
import { LimitsGuard } from '../src/limits/limits.guard';

type Mode = 'full' | 'limits-overridden' | 'bare';

/** A title envelope of the size a lookup returns (~1.4 KB). */
const BARE_BODY = {
  data: [
    {
      id: 421337,
      imdb_id: 'tt0421337',
      type: 'movie',
      title: 'The Last Night of the Northern City',
      original_title: 'La dernière nuit de la ville du nord',
      year: 1998,
      end_year: null,
      runtime_minutes: 124,
      genres: ['Crime', 'Drama', 'Thriller'],
      content_rating: 'R',
      plot: 'A retired detective returns to the city he left twenty years ago to find the man who framed his partner, and finds that the city has changed less than he had hoped.',
      languages: ['English', 'French'],
      countries: ['United States', 'France'],
      directors: ['Kestrin Valdor'],
      writers: ['Amelie Laurent', 'Kestrin Valdor'],
      actors: ['Jonah Reyes', 'Marta Lindqvist', 'Odile Fournier', 'Samuel Okafor'],
      awards: 'Won 2 Oscars. 14 wins & 31 nominations total',
      poster_url:
        'https://m.media-amazon.com/images/M/MV5BMTQ0NjUzMDMyOF5BMl5BanBnXkFtZTgwODA1OTU1MDE@._V1_SX300.jpg',
      box_office: '$48,532,104',
      production: 'Northern Light Pictures',
      total_seasons: null,
      ratings: { average: 7.9, votes: 254311 },
    },
  ],
  meta: { request_id: '00000000-0000-4000-8000-000000000000' },
};

@Controller()
class BareController {
  @Get('bare')
  bare() {
    return BARE_BODY;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const mode = process.argv[2] as Mode;
  const port = Number(process.argv[3]);
  const config = { ...loadConfig(), firstRunSetup: false };
  let builder = Test.createTestingModule({
    imports: [mode === 'bare' ? BareModule : AppModule.forRoot(config)],
  });
  if (mode === 'limits-overridden')
    builder = builder.overrideProvider(LimitsGuard).useValue({ canActivate: () => true });
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), APP_OPTIONS);
  if (mode === 'bare') {
    app.disable('x-powered-by');
    app.set('etag', false);
  } else {
    configureApp(app);
  }
  await app.init();

  let statements = 0;
  let key: string | null = null;
  if (mode !== 'bare') {
    const pool = (app.get(DataSource).driver as PostgresDriver).master as Pool;
    pool.on('acquire', () => statements++);
    key = (
      await app
        .get(ApiKeyService)
        .create({ name: `bench ${mode}`, rpm: 1_000_000, monthlyQuota: 1_000_000_000 })
    ).key;
  }
  await app.listen(port, '127.0.0.1');
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') {
      const cpu = process.cpuUsage();
      const memory = process.memoryUsage();
      process.send?.({
        type: 'stats',
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
        statements,
        cpuMicros: cpu.user + cpu.system,
      });
    }
    if (message.type === 'stop') void app.close().then(() => process.exit(0));
  });
  process.send?.({ type: 'ready', key });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
