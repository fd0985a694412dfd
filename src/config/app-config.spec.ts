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
      metricsPort: null,
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
