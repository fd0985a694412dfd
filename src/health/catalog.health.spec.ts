import { HealthIndicatorService } from '@nestjs/terminus';
import type { CatalogStateProvider, StateReading } from '../catalog/catalog-state.provider';
import { CHECK_REUSE_MS, CatalogHealthIndicator } from './catalog.health';

const reading = (version: string, sentAt = Date.now()): StateReading => ({
  state: {
    catalogVersion: version,
    loadVersion: `${version}#1`,
    titleCount: 1,
    ingestedAt: null,
    enrichmentComplete: false,
  },
  sentAt,
});

describe('CatalogHealthIndicator', () => {
  let settle: ((value: StateReading | Error) => void)[];
  let indicator: CatalogHealthIndicator;
  let reads: number;

  beforeEach(() => {
    settle = [];
    reads = 0;
    const provider = {
      freshOnPool: () => {
        reads++;
        return new Promise<StateReading>((resolve, reject) =>
          settle.push((value) => (value instanceof Error ? reject(value) : resolve(value))),
        );
      },
    } as unknown as CatalogStateProvider;
    indicator = new CatalogHealthIndicator(new HealthIndicatorService(), provider);
  });

  async function probe(): Promise<string | Error> {
    let version: string | null = null;
    const result = await indicator.check('catalog', (state) => (version = state.catalogVersion));
    return result.catalog.status === 'up' ? version! : new Error(String(result.catalog.message));
  }

  it('a lone probe always reads the database: a new version or an outage shows at once', async () => {
    const first = probe();
    settle[0](reading('v1'));
    expect(await first).toBe('v1');
    const second = probe();
    expect(reads).toBe(2);
    settle[1](reading('v2'));
    expect(await second).toBe('v2');
    const third = probe();
    settle[2](new Error('connection refused'));
    expect(await third).toEqual(new Error('connection refused'));
  });

  it(`probes during a running check reuse a result sent under ${CHECK_REUSE_MS} ms ago`, async () => {
    const first = probe();
    settle[0](reading('v1'));
    await first;
    const running = probe();
    expect(await probe()).toBe('v1');
    expect(reads).toBe(2);
    settle[1](reading('v2'));
    expect(await running).toBe('v2');
  });

  it('probes during a running check wait for it once the previous result is too old', async () => {
    const first = probe();
    settle[0](reading('v1', Date.now() - CHECK_REUSE_MS));
    await first;
    const running = probe();
    const waiting = probe();
    expect(reads).toBe(2);
    settle[1](reading('v2'));
    expect(await waiting).toBe('v2');
    expect(await running).toBe('v2');
  });

  it('a failed check is never reused', async () => {
    const first = probe();
    settle[0](reading('v1'));
    await first;
    const failing = probe();
    settle[1](new Error('down'));
    await failing;
    const running = probe();
    const waiting = probe();
    settle[2](new Error('still down'));
    expect(await waiting).toEqual(new Error('still down'));
    await running;
  });
});
