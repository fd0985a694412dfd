import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      environment: 'development',
      logLevel: 'info',
      redisUrl: null,
      firstRunSetup: true,
      database: { kind: 'embedded', dataDir: './.data' },
      server: {
        shutdownGraceMs: 5_000,
        shutdownTimeoutMs: 20_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 4_096,
      },
      metricsPort: null,
    });
  });

  it('reads the server lifecycle settings', () => {
    expect(
      loadConfig({
        SHUTDOWN_GRACE_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '1500',
        KEEP_ALIVE_TIMEOUT_MS: '620000',
        MAX_CONNECTIONS: '100',
      }).server,
    ).toEqual({
      shutdownGraceMs: 0,
      shutdownTimeoutMs: 1_500,
      keepAliveTimeoutMs: 620_000,
      maxConnections: 100,
    });
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/catalog',
      PORT: '8080',
      APP_ENV: 'production',
    });
    expect(config).toMatchObject({
      port: 8080,
      environment: 'production',
      database: { kind: 'postgres', url: 'postgres://u@db:5432/catalog' },
    });
  });

  it('reads the direct URL and the pool sizes of a PostgreSQL fleet', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@pooler:6432/catalog',
      DATABASE_DIRECT_URL: 'postgres://u@db:5432/catalog',
      DATABASE_POOL_SIZE: '6',
      DATABASE_SEARCH_POOL_SIZE: '2',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@pooler:6432/catalog',
      directUrl: 'postgres://u@db:5432/catalog',
      poolSize: 6,
      searchPoolSize: 2,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_DIRECT_URL: 'mysql://x' }, 'DATABASE_DIRECT_URL'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_SEARCH_POOL_SIZE: 'many' }, 'DATABASE_SEARCH_POOL_SIZE'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ APP_ENV: 'prod env' }, 'APP_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ SHUTDOWN_GRACE_MS: '-1' }, 'SHUTDOWN_GRACE_MS'],
    [{ SHUTDOWN_TIMEOUT_MS: '5s' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '10' }, 'KEEP_ALIVE_TIMEOUT_MS'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
  ])('refuses %j with one line naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});

describe('loadConfig: METRICS_PORT', () => {
  it('is off when unset or empty, and a port otherwise', () => {
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
  });

  it.each(['0', '65536', 'x', '94.64'])('refuses %j with one line naming METRICS_PORT', (value) => {
    expect(() => loadConfig({ METRICS_PORT: value })).toThrow(
      /^Invalid configuration: METRICS_PORT must be an integer from 1 to 65535$/,
    );
  });

  it('refuses the public port', () => {
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow('METRICS_PORT must differ from PORT');
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(ConfigError);
  });
});

describe('CATALOG_API_REQUIRE_DATABASE_URL (set by the container image)', () => {
  it('refuses to fall back to the embedded database, naming DATABASE_URL', () => {
    expect(() => loadConfig({ CATALOG_API_REQUIRE_DATABASE_URL: '1' })).toThrow(
      /^Invalid configuration: DATABASE_URL must be set/,
    );
    expect(
      loadConfig({ CATALOG_API_REQUIRE_DATABASE_URL: '1', DATABASE_URL: 'postgres://u@db/c' }).database.kind,
    ).toBe('postgres');
    expect(loadConfig({ CATALOG_API_REQUIRE_DATABASE_URL: '0' }).database.kind).toBe('embedded');
    expect(() => loadConfig({ CATALOG_API_REQUIRE_DATABASE_URL: 'yes' })).toThrow(
      /CATALOG_API_REQUIRE_DATABASE_URL must be 0 or 1/,
    );
  });
});
