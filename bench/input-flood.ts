/**
 * What distinct client input costs a replica's memory, against the bound CACHE_BUDGET_MB + 32 MB,
 * as production runs: the image's V8 flags, access lines on (LOG_LEVEL=info) and, unless
 * --read-stdout, a stdout nobody reads once warm (a stalled log pipeline). The baseline is a warm-up
 * repeating 64 inputs of each kind: the load alone grows V8's heap, and that is not what distinct
 * input retains. Details: bench/README.md.
 *
 *   npm run build && npx ts-node --transpile-only bench/input-flood.ts [--requests 100000] [--cache-budget-mb 64] [--read-stdout]
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/free-port';
import {
  FLOOD_KINDS,
  type FloodKind,
  flood,
  residentBytes,
  watchResident,
} from '../test/support/request-flood';
import { CONTAINER_NODE_ARGS, ServerProcess } from '../test/support/server-process';
import { SERVED_IDS, seedServedCatalog } from '../test/support/served-catalog';
import { createTestDatabase } from '../test/support/test-database';
import { sleep } from '../test/support/timing';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    warmup: { type: 'string', default: '20000' },
    'cache-budget-mb': { type: 'string', default: '64' },
    kinds: { type: 'string', default: FLOOD_KINDS.join(',') },
    'read-stdout': { type: 'boolean', default: false },
  },
});
const MB = 1024 * 1024;
const HEADROOM_MB = 32;
/** Up to 8 clients searching at once are always served: the flood's searches are never refused. */
const CONCURRENCY: Record<FloodKind, number> = {
  'long-ids': 16,
  searches: 8,
  'list-pages': 16,
  'unknown-keys': 16,
  'long-keys': 16,
  'request-ids': 16,
};

async function main(): Promise<void> {
  const requests = Number(values.requests);
  const budgetMb = Number(values['cache-budget-mb']);
  const kinds = values.kinds!.split(',') as FloodKind[];
  const database = await createTestDatabase();
  if (database.config.kind !== 'postgres') throw new Error('needs PostgreSQL (TEST_DATABASE=postgres)');
  let server: ServerProcess | undefined;
  try {
    const { key } = await seedServedCatalog(database.config);
    server = await ServerProcess.start(
      await freePort(),
      {
        DATABASE_URL: database.config.url,
        CACHE_BUDGET_MB: String(budgetMb),
        SHUTDOWN_GRACE_MS: '0',
        LOG_LEVEL: 'info',
      },
      CONTAINER_NODE_ARGS,
    );
    const pid = server.child.pid!;
    const options = { key, knownId: SERVED_IDS[0] };
    const warm = watchResident(pid);
    for (const kind of kinds) {
      await flood(server.port, kind, Number(values.warmup), {
        ...options,
        offset: 10_000_000,
        repeat: 64,
        concurrency: CONCURRENCY[kind],
      });
    }
    warm.stop();
    await sleep(1_000);
    const baseline = Math.max(warm.peak, residentBytes(pid)!);
    if (!values['read-stdout']) server.pauseStdout();
    const resident = watchResident(pid);
    const results: Record<string, unknown> = {};
    for (const kind of kinds) {
      const result = await flood(server.port, kind, requests, { ...options, concurrency: CONCURRENCY[kind] });
      results[kind] = {
        ...result,
        requestsPerSecond: Math.round(result.requests / result.seconds),
        peakGrowthMb: Math.round((resident.peak - baseline) / MB),
        alive: server.alive,
      };
      console.error(JSON.stringify({ kind, ...(results[kind] as object) }));
      if (!server.alive) break;
    }
    resident.stop();
    const growthMb = (resident.peak - baseline) / MB;
    console.log(
      JSON.stringify({
        command: `bench/input-flood.ts ${process.argv.slice(2).join(' ')}`.trim(),
        date: new Date().toISOString(),
        machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
        cacheBudgetMb: budgetMb,
        stdout: values['read-stdout'] ? 'read' : 'stalled',
        baselineMb: Math.round(baseline / MB),
        peakMb: Math.round(resident.peak / MB),
        peakGrowthMb: Math.round(growthMb),
        boundMb: budgetMb + HEADROOM_MB,
        withinBound: server.alive && growthMb <= budgetMb + HEADROOM_MB,
        results,
      }),
    );
  } finally {
    await server?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
