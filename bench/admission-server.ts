/**
 * One server for `bench/admission.ts`, in its own process (the load generator must not share its
 * event loop). Modes:
 *   full               the real AppModule: API key, minute and month limits, then the handler
 *   limits-overridden  the same app with LimitsGuard overridden through the testing module
 *   bare               a NestJS-on-Express app answering a fixed 1.4 KB JSON body
 *   bare+throttler     bare behind @nestjs/throttler's ThrottlerGuard (global) with the two named
 *                      throttlers of the limit table (minute, month), a storage that counts nothing, a
 *                      `handleRequest` that only asks it (no key hash, no headers), and the service's
 *                      caching Reflector (`RouteMetadata`)
 *   bare+guards        bare+throttler, and before it a key guard as thin as one can be (route metadata,
 *                      the bearer token looked up in a Map), and the handler taking the request id and
 *                      the request through two custom parameter decorators: the framework's part of the
 *                      service's pipeline, with none of the service's own work
 *   bare+guards+app-prototypes  bare+guards on an adapter whose server makes requests and responses
 *                      on the app's prototypes (`AppPrototypesExpressAdapter`, as the service's):
 *                      the same floor without Express's per-request prototype change
 * Started with `fork()`; answers `{ type: 'stats' }` messages with its RSS, the CPU time it has used
 * and the number of SQL statements its PostgreSQL pool ran (pool "acquire" events: one per statement outside a session).
 */
import 'reflect-metadata';
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  createParamDecorator,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModule,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import express, { type Request } from 'express';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../src/app.setup';
import { ApiKeyService } from '../src/auth/api-key.service';
import { isPublicRoute } from '../src/common/routing/public-route.decorator';
import { RouteMetadata, RouteMetadataModule } from '../src/common/routing/route-metadata';
import { loadConfig } from '../src/config/app-config';
import type { ServerMode } from './server-modes';
import { LimitsGuard } from '../src/limits/limits.guard';
import { AppPrototypesExpressAdapter } from '../src/server/app-prototypes.adapter';

type Mode = ServerMode;

/** The bearer token the framework-floor servers accept (`bare+guards`). */
const FLOOR_KEY = 'floor-key';

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

/**
 * A storage that counts nothing: the package's own in-memory storage keeps every hit's expiry and
 * costs ~0.5 ms a request at these rates, which would measure the storage, not the guard.
 */
class UncountedStorage implements ThrottlerStorage {
  increment(_key: string, ttl: number): ReturnType<ThrottlerStorage['increment']> {
    return Promise.resolve({
      totalHits: 1,
      timeToExpire: ttl / 1000,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  }
}

/** The limit table's two rows as @nestjs/throttler's named throttlers, never reached. */
const FloorThrottlerModule = ThrottlerModule.forRoot({
  throttlers: [
    { name: 'minute', ttl: 60_000, limit: 1_000_000_000 },
    { name: 'month', ttl: 2_592_000_000, limit: 1_000_000_000 },
  ],
  storage: new UncountedStorage(),
});

/**
 * The throttler guard doing the least its extension point allows (no key hash, no headers), so
 * what is measured is the package's `canActivate` loop and Nest's guard stage.
 */
@Injectable()
class SkeletonThrottlerGuard extends ThrottlerGuard {
  // The service's caching Reflector, as LimitsGuard has: the floor is the least the guard costs.
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: RouteMetadata,
  ) {
    super(options, storage, reflector);
  }

  protected override async handleRequest({
    ttl,
    limit,
    blockDuration,
    throttler,
  }: ThrottlerRequest): Promise<boolean> {
    await this.storageService.increment('floor', ttl, limit, blockDuration, throttler.name ?? 'default');
    return true;
  }
}

@Module({
  imports: [FloorThrottlerModule, RouteMetadataModule],
  controllers: [BareController],
  providers: [{ provide: APP_GUARD, useClass: SkeletonThrottlerGuard }],
})
class BareThrottlerModule {}

/** A key guard with no hashing, directory or headers: route metadata (cached) and a Map lookup. */
@Injectable()
class FloorKeyGuard implements CanActivate {
  private readonly keys = new Map([[`Bearer ${FLOOR_KEY}`, { id: 1 }]]);
  constructor(private readonly reflector: RouteMetadata) {}
  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<Request & { key?: unknown }>();
    req.key = this.keys.get(req.headers.authorization ?? '');
    return req.key !== undefined;
  }
}

const FloorRequestId = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().headers['x-request-id'],
);
const FloorRequest = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  ctx.switchToHttp().getRequest<Request>(),
);

@Controller()
class BareGuardedController {
  @Get('bare')
  bare(@FloorRequestId() _requestId: unknown, @FloorRequest() _req: unknown) {
    return BARE_BODY;
  }
}

@Module({
  imports: [FloorThrottlerModule, RouteMetadataModule],
  controllers: [BareGuardedController],
  providers: [
    { provide: APP_GUARD, useClass: FloorKeyGuard },
    { provide: APP_GUARD, useClass: SkeletonThrottlerGuard },
  ],
})
class BareGuardedModule {}

const BARE_MODULES = {
  bare: BareModule,
  'bare+throttler': BareThrottlerModule,
  'bare+guards': BareGuardedModule,
  'bare+guards+app-prototypes': BareGuardedModule,
} as const;

/** The floors whose bearer token is `FLOOR_KEY`. */
const KEYED_FLOORS: readonly Mode[] = ['bare+guards', 'bare+guards+app-prototypes'];

function isBare(mode: Mode): mode is keyof typeof BARE_MODULES {
  return mode in BARE_MODULES;
}

async function main(): Promise<void> {
  const mode = process.argv[2] as Mode;
  const port = Number(process.argv[3]);
  const config = { ...loadConfig(), firstRunSetup: false };
  let builder = Test.createTestingModule({
    imports: [isBare(mode) ? BARE_MODULES[mode] : AppModule.forRoot(config)],
  });
  if (mode === 'limits-overridden')
    builder = builder.overrideProvider(LimitsGuard).useValue({ canActivate: () => true });
  const moduleRef = await builder.compile();
  // The floors on Nest's own adapter: the service's (`createHttpAdapter`) holds answer headers, which
  // costs every header call of a response that does not use it. One floor takes only the service's
  // way of making requests and responses (`AppPrototypesExpressAdapter`), to compare on equal terms.
  const adapter =
    mode === 'bare+guards+app-prototypes'
      ? new AppPrototypesExpressAdapter(express())
      : isBare(mode)
        ? new ExpressAdapter(express())
        : createHttpAdapter();
  const app = moduleRef.createNestApplication<NestExpressApplication>(adapter, APP_OPTIONS);
  if (isBare(mode)) {
    app.disable('x-powered-by');
    app.set('etag', false);
  } else {
    configureApp(app);
  }
  await app.init();

  let statements = 0;
  let key: string | null = KEYED_FLOORS.includes(mode) ? FLOOR_KEY : null;
  if (!isBare(mode)) {
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
