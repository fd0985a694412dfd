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
      fastAnswers: true,
      database: { kind: 'embedded', dataDir: './.data' },
      server: {
        shutdownGraceMs: 5_000,
        shutdownTimeoutMs: 20_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 4_096,
      },
      metricsPort: null,
      healthPort: null,
      cacheBudgetBytes: 64 * 1024 * 1024,
      trustProxy: false,
      tls: null,
    });
  });

  it('reads the cache budget in MiB, 0 keeping nothing', () => {
    expect(loadConfig({ CACHE_BUDGET_MB: '200' }).cacheBudgetBytes).toBe(200 * 1024 * 1024);
    expect(loadConfig({ CACHE_BUDGET_MB: '0' }).cacheBudgetBytes).toBe(0);
    for (const bad of ['-1', '1.5', 'lots', '16385']) {
      expect(() => loadConfig({ CACHE_BUDGET_MB: bad })).toThrow(
        'Invalid configuration: CACHE_BUDGET_MB must be an integer from 0 to 16384',
      );
    }
  });

  it('reads TLS_CERT_FILE and TLS_KEY_FILE together, and refuses one without the other', () => {
    expect(loadConfig({ TLS_CERT_FILE: '/tls/tls.crt', TLS_KEY_FILE: '/tls/tls.key' }).tls).toEqual({
      certFile: '/tls/tls.crt',
      keyFile: '/tls/tls.key',
    });
    expect(loadConfig({ TLS_CERT_FILE: '', TLS_KEY_FILE: '' }).tls).toBeNull();
    expect(() => loadConfig({ TLS_CERT_FILE: '/tls/tls.crt' })).toThrow(
      'Invalid configuration: TLS_KEY_FILE must be set with TLS_CERT_FILE',
    );
    expect(() => loadConfig({ TLS_KEY_FILE: '/tls/tls.key' })).toThrow(
      'Invalid configuration: TLS_CERT_FILE must be set with TLS_KEY_FILE',
    );
  });

  it('reads TRUST_PROXY as a hop count or an address list, off when unset, empty or 0', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['true', '17', '-1', '10.0.0.0/33', 'proxy.internal', '10.0.0.1,', '1.2.3.4/8/8', '::1/129'])(
    'refuses TRUST_PROXY=%s with one line naming it',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must be /,
      );
    },
  );

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

  it('reads DATABASE_READ_URL as a comma-separated list of replica URLs', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/catalog',
      DATABASE_READ_URL: 'postgres://u@replica-a:5432/catalog, postgresql://u@replica-b:5432/catalog',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/catalog',
      readUrls: ['postgres://u@replica-a:5432/catalog', 'postgresql://u@replica-b:5432/catalog'],
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/c', DATABASE_READ_URL: '' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db/c',
    });
  });

  it('refuses DATABASE_READ_URL without DATABASE_URL: the embedded database has no replicas', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@replica:5432/catalog' })).toThrow(
      /^Invalid configuration: DATABASE_READ_URL needs DATABASE_URL /,
    );
  });

  it.each([
    [{ DATABASE_URL: 'postgres://u@db/c', DATABASE_READ_URL: 'mysql://x' }, 'DATABASE_READ_URL'],
    [{ DATABASE_URL: 'postgres://u@db/c', DATABASE_READ_URL: 'postgres://u@a/c,,' }, 'DATABASE_READ_URL'],
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
describe('loadConfig: HEALTH_PORT', () => {
  it('is off unless set', () => {
    expect(loadConfig({}).healthPort).toBeNull();
    expect(loadConfig({ HEALTH_PORT: '' }).healthPort).toBeNull();
    expect(loadConfig({ HEALTH_PORT: '8081' }).healthPort).toBe(8081);
  });

  it.each(['0', '65536', 'x'])('refuses %j with one line naming HEALTH_PORT', (value) => {
    expect(() => loadConfig({ HEALTH_PORT: value })).toThrow(
      /^Invalid configuration: HEALTH_PORT must be an integer from 1 to 65535$/,
    );
  });

  it('refuses the API port or the metrics port', () => {
    expect(() => loadConfig({ HEALTH_PORT: '3000' })).toThrow('HEALTH_PORT must differ from PORT');
    expect(() => loadConfig({ METRICS_PORT: '9464', HEALTH_PORT: '9464' })).toThrow(
      'HEALTH_PORT must differ from METRICS_PORT',
    );
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

describe('FAST_ANSWERS', () => {
  it('is on unless 0, and refuses anything but 0 or 1', () => {
    expect(loadConfig({}).fastAnswers).toBe(true);
    expect(loadConfig({ FAST_ANSWERS: '' }).fastAnswers).toBe(true);
    expect(loadConfig({ FAST_ANSWERS: '1' }).fastAnswers).toBe(true);
    expect(loadConfig({ FAST_ANSWERS: '0' }).fastAnswers).toBe(false);
    expect(() => loadConfig({ FAST_ANSWERS: 'off' })).toThrow(/FAST_ANSWERS must be 0 or 1/);
  });
});
