import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { POSTGRES_POOL } from './data-source-options';
import { ResilientClient, hardenPool } from './resilient-client';

describe('resilient pg connections', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('a client handles its own error event (an unhandled one would end the process)', () => {
    const client = new ResilientClient({});
    expect(() =>
      client.emit('error', new Error('terminating connection due to administrator command')),
    ).not.toThrow();
    expect(Logger.prototype.warn).toHaveBeenCalledWith(expect.stringContaining('administrator command'));
  });

  it('a hardened pool handles its error event', () => {
    const pool = hardenPool(new Pool({}));
    expect(() => pool.emit('error', new Error('idle client died'))).not.toThrow();
  });

  it('every pool built from the shared options uses it, with client-side deadlines and keep-alive', () => {
    expect(POSTGRES_POOL.Client).toBe(ResilientClient);
    expect(POSTGRES_POOL.query_timeout).toBeGreaterThan(0);
    expect(POSTGRES_POOL.connectionTimeoutMillis).toBeGreaterThan(0);
    expect(POSTGRES_POOL.keepAlive).toBe(true);
  });
});
