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

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ APP_ENV: 'prod env' }, 'APP_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
  ])('refuses %j with one line naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
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
