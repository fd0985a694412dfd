import type { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import { attachAuthenticatedKey } from './authenticated-key';
import { type LimitRow, type LimitTable, rollingWindow } from './limit-table';
import { ApiError } from '../common/errors/api-error';
import { RouteMetadata } from '../common/routing/route-metadata';
import { ReplicaAllowances } from './replica-allowances';
import { LimitsGuard } from './limits.guard';

const KEY = { id: 'k1', rpm: 120, monthlyQuota: 50_000 };

function row(name: string, ms: number, refusal: LimitRow['refusal'], retryAfter: number): LimitRow {
  return {
    name,
    window: rollingWindow(ms),
    limit: { of: (key) => key.rpm, field: name, description: name },
    refusal,
    retryAfterSeconds: () => retryAfter,
    counters: { table: `${name}_counters`, redis: false },
    quota: false,
  };
}

/** Longest window first: the package, left alone, would check the shorter fixed ttl first. */
const TABLE: LimitTable = [
  row('hour', 3_600_000, 'MONTHLY_QUOTA_EXCEEDED', 3_600),
  row('minute', 60_000, 'RATE_LIMITED', 60),
];

class Handler {
  get(): void {}
}

function httpContext(req: object, headers: Record<string, string>, writes: string[] = []): ExecutionContext {
  const res = {
    set: (values: Record<string, string>) => {
      writes.push(...Object.keys(values));
      Object.assign(headers, values);
    },
    setHeader: (name: string, value: string) => {
      writes.push(name);
      headers[name] = value;
    },
  };
  return new ExecutionContextHost([req, res], Handler, Handler.prototype.get);
}

describe('LimitsGuard', () => {
  const checked: string[] = [];
  let refusing: string | null = null;
  let failing = false;
  const storage: ThrottlerStorage = {
    increment: async (_key, _ttl, _limit, _block, name) => {
      if (failing) throw new Error('the counters are unreachable');
      checked.push(name);
      return { totalHits: 1, timeToExpire: 60, isBlocked: name === refusing, timeToBlockExpire: 0 };
    },
  };
  const allowances = new ReplicaAllowances({});
  let guard: LimitsGuard;

  beforeEach(async () => {
    checked.length = 0;
    refusing = null;
    failing = false;
    // Fixed ttls, as a table of rolling windows could give them: the package sorts them shortest first.
    const options: ThrottlerModuleOptions = {
      throttlers: TABLE.map((limit) => ({ name: limit.name, ttl: limit.window.ttlMs(0), limit: 10 })),
      getTracker: () => KEY.id,
      generateKey: (_context, tracker, name) => `${name}:${tracker}`,
      setHeaders: false,
    };
    guard = new LimitsGuard(options, storage, new RouteMetadata(), allowances, TABLE);
    await guard.onModuleInit();
  });

  afterAll(() => allowances.onModuleDestroy());

  it('checks the limits in the table’s order, whatever their ttls', async () => {
    const req = {};
    attachAuthenticatedKey(req, KEY);
    await expect(guard.canActivate(httpContext(req, {}))).resolves.toBe(true);
    expect(checked).toEqual(['hour', 'minute']);
  });

  it('refuses with the refusing row’s code and Retry-After, and stops there', async () => {
    refusing = 'hour';
    const req = {};
    attachAuthenticatedKey(req, KEY);
    const headers: Record<string, string> = {};
    const refusal = await guard.canActivate(httpContext(req, headers)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('MONTHLY_QUOTA_EXCEEDED');
    expect(checked).toEqual(['hour']);
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '120',
      'X-RateLimit-Remaining': '0',
      'Retry-After': '3600',
    });
    expect(headers.RateLimit).toMatch(/^"hour";r=0;t=\d+, "minute";r=120;t=60$/);
  });

  it('writes each rate-limit header once, admitted or refused', async () => {
    for (const refused of [null, 'minute']) {
      refusing = refused;
      const req = {};
      attachAuthenticatedKey(req, KEY);
      const writes: string[] = [];
      await guard.canActivate(httpContext(req, {}, writes)).catch(() => undefined);
      expect(writes.length).toBe(new Set(writes).size);
      expect(writes).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']));
    }
  });

  it('answers a failure of the counters with the key’s policy headers', async () => {
    failing = true;
    const req = {};
    attachAuthenticatedKey(req, KEY);
    const headers: Record<string, string> = {};
    await expect(guard.canActivate(httpContext(req, headers))).rejects.toThrow('unreachable');
    expect(headers).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '119' });
  });
});
