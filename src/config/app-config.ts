import { applyDecorators } from '@nestjs/common';
import { isIP } from 'node:net';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  validateSync,
} from 'class-validator';

/**
 * PostgreSQL or embedded PGlite. `directUrl` bypasses a transaction pooler: the load's session needs
 * one server connection throughout. See docs/operations.md, Configuration.
 */
export type DatabaseConfig =
  | {
      kind: 'postgres';
      url: string;
      directUrl?: string;
      poolSize?: number;
      searchPoolSize?: number;
      readUrls?: string[];
    }
  | { kind: 'embedded'; dataDir: string };

export interface AppConfig {
  /** Listen port; 0 asks the system for a free one (the start-up log line names it). */
  port: number;
  host: string;
  environment: string;
  database: DatabaseConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Optional Redis for the per-minute counters; PostgreSQL is used when absent. */
  redisUrl: string | null;
  /**
   * On an empty embedded database, the server creates a development key and loads the sample
   * catalog (never with DATABASE_URL). Tests turn it off.
   */
  firstRunSetup: boolean;
  /**
   * `FAST_ANSWERS` (default 1): the speed bends of docs/architecture.md are on (requests born on the
   * app's prototypes, answer headers held for one `writeHead`, cached answers written as byte strings,
   * the first middleware as one Express layer); 0 runs stock NestJS on Express instead (Nest's server,
   * `setHeader`, `res.send`, one layer per middleware). The answers are the same bytes either way.
   */
  fastAnswers: boolean;
  /** The HTTP server's lifecycle: connection bounds and the graceful drain (see docs/operations.md). */
  server: ServerConfig;
  /** Port of the separate Prometheus `/metrics` listener; null (unset) turns metrics off. */
  metricsPort: number | null;
  /** Port of the separate listener for health probes (`/health` only); null (unset): none. */
  healthPort: number | null;
  /** Bytes the in-memory caches of titles, searches and list pages may hold together (CACHE_BUDGET_MB). */
  cacheBudgetBytes: number;
  /**
   * Which peers' `X-Forwarded-For` / `X-Forwarded-Proto` are believed (Express's `trust proxy`): none
   * (false, the default), the nearest N hops, or the listed addresses, subnets and Express's names.
   */
  trustProxy: TrustProxy;
  /** PEM files that make the API port speak HTTPS; null (both unset) serves plain HTTP. */
  tls: TlsConfig | null;
}

/** The certificate chain and private key files, read at start and again when they change. */
export interface TlsConfig {
  certFile: string;
  keyFile: string;
}

export type TrustProxy = false | number | string[];

export interface ServerConfig {
  /** After SIGTERM, how long /health answers 500 while requests are still served. */
  shutdownGraceMs: number;
  /** After the grace period, how long in-flight requests may take before connections are cut. */
  shutdownTimeoutMs: number;
  /** How long an idle keep-alive connection stays open; above the load balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  /** The most connections the server holds at once; further ones are closed on arrival. */
  maxConnections: number;
}

/**
 * Sized for the manifests' 512 MiB memory limit: the process holds ~130 MB without caches, and a
 * full-scale load's transient garbage needs headroom above both (bench/RESULTS.md, cache memory).
 */
export const DEFAULT_CACHE_BUDGET_MB = 64;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** DATABASE_READ_URL's entries: comma-separated, blanks around them ignored. */
function readUrlList(value: string): string[] {
  return value.split(',').map((entry) => entry.trim());
}

/** Express's names for address ranges, accepted in a TRUST_PROXY list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_TRUSTED_HOPS = 16;

/** A hop count, or a comma-separated list of IP addresses, CIDR subnets and Express's range names. */
function isTrustProxyValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^\d+$/.test(value)) return Number(value) <= MAX_TRUSTED_HOPS;
  return trustProxyList(value).every(isTrustedAddress);
}

function trustProxyList(value: string): string[] {
  return value.split(',').map((entry) => entry.trim());
}

function isTrustedAddress(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * An optional whole-number variable within [min, max], refused with one message naming it. An empty
 * value is invalid unless `emptyIsUnset` (then it counts as not set).
 */
function IntegerVariable(
  name: string,
  min: number,
  max: number,
  { emptyIsUnset = false } = {},
): PropertyDecorator {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (emptyIsUnset && value === '' ? undefined : toInt({ value }))),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

/** The environment variables the server and the CLI read, with their rules. */
class EnvironmentVariables {
  /** Set to 1 by the container image: the embedded database is for trying the service, not for containers. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(['0', '1'], { message: 'CATALOG_API_REQUIRE_DATABASE_URL must be 0 or 1' })
  CATALOG_API_REQUIRE_DATABASE_URL?: '0' | '1';

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(['0', '1'], { message: 'FAST_ANSWERS must be 0 or 1' })
  FAST_ANSWERS?: '0' | '1';

  @IntegerVariable('PORT', 0, 65_535)
  PORT?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(1, { message: 'HOST must not be empty' })
  HOST?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(POSTGRES_URL, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(POSTGRES_URL, {
    message: 'DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL',
  })
  DATABASE_DIRECT_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @ValidateBy(
    {
      name: 'readUrls',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && readUrlList(value).every((url) => POSTGRES_URL.test(url)),
      },
    },
    {
      message: 'DATABASE_READ_URL must be one or more postgres:// or postgresql:// URLs, separated by commas',
    },
  )
  DATABASE_READ_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'APP_ENV must consist of letters, digits, ".", "_" or "-"' })
  @MaxLength(64, { message: 'APP_ENV must be at most 64 characters' })
  APP_ENV?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IntegerVariable('SHUTDOWN_GRACE_MS', 0, 600_000)
  SHUTDOWN_GRACE_MS?: number;

  @IntegerVariable('SHUTDOWN_TIMEOUT_MS', 0, 600_000)
  SHUTDOWN_TIMEOUT_MS?: number;

  @IntegerVariable('KEEP_ALIVE_TIMEOUT_MS', 1000, 3_600_000)
  KEEP_ALIVE_TIMEOUT_MS?: number;

  @IntegerVariable('DATABASE_POOL_SIZE', 1, 1_000)
  DATABASE_POOL_SIZE?: number;

  @IntegerVariable('DATABASE_SEARCH_POOL_SIZE', 1, 1_000)
  DATABASE_SEARCH_POOL_SIZE?: number;

  @IntegerVariable('MAX_CONNECTIONS', 1, 1_000_000)
  MAX_CONNECTIONS?: number;

  @IntegerVariable('METRICS_PORT', 1, 65_535, { emptyIsUnset: true })
  METRICS_PORT?: number;

  @IntegerVariable('HEALTH_PORT', 1, 65_535, { emptyIsUnset: true })
  HEALTH_PORT?: number;

  @IntegerVariable('CACHE_BUDGET_MB', 0, 16_384)
  CACHE_BUDGET_MB?: number;
  @IsOptional()
  @Transform(emptyToUndefined)
  @ValidateBy(
    { name: 'trustProxy', validator: { validate: isTrustProxyValue } },
    {
      message: `TRUST_PROXY must be a hop count from 0 to ${MAX_TRUSTED_HOPS} or a comma-separated list of IP addresses, CIDR subnets, ${TRUST_PROXY_NAMES.join(', ')}`,
    },
  )
  TRUST_PROXY?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  TLS_CERT_FILE?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  TLS_KEY_FILE?: string;
}

/** Raised for bad configuration; its message is one line naming the variable. */
export class ConfigError extends Error {}

/** Validates the environment once and returns the typed configuration. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const vars = plainToInstance(EnvironmentVariables, { ...env }, { excludeExtraneousValues: false });
  const [firstError] = validateSync(vars, { whitelist: false, stopAtFirstError: true });
  if (firstError) {
    const message = Object.values(firstError.constraints ?? {})[0] ?? `${firstError.property} is invalid`;
    throw new ConfigError(`Invalid configuration: ${message}`);
  }
  if (vars.CATALOG_API_REQUIRE_DATABASE_URL === '1' && !vars.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL must be set (CATALOG_API_REQUIRE_DATABASE_URL=1: this image does not run the embedded database)',
    );
  }
  if (vars.DATABASE_READ_URL && !vars.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (read replicas follow a PostgreSQL primary; the embedded database has none)',
    );
  }
  return {
    port: vars.PORT ?? 3000,
    host: vars.HOST ?? '0.0.0.0',
    environment: vars.APP_ENV ?? 'development',
    database: vars.DATABASE_URL
      ? {
          kind: 'postgres',
          url: vars.DATABASE_URL,
          directUrl: vars.DATABASE_DIRECT_URL,
          poolSize: vars.DATABASE_POOL_SIZE,
          searchPoolSize: vars.DATABASE_SEARCH_POOL_SIZE,
          readUrls: vars.DATABASE_READ_URL ? readUrlList(vars.DATABASE_READ_URL) : undefined,
        }
      : { kind: 'embedded', dataDir: vars.DATA_DIR ?? './.data' },
    logLevel: vars.LOG_LEVEL ?? 'info',
    redisUrl: vars.REDIS_URL ?? null,
    firstRunSetup: true,
    fastAnswers: vars.FAST_ANSWERS !== '0',
    server: {
      shutdownGraceMs: vars.SHUTDOWN_GRACE_MS ?? 5_000,
      shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS ?? 20_000,
      keepAliveTimeoutMs: vars.KEEP_ALIVE_TIMEOUT_MS ?? 65_000,
      maxConnections: vars.MAX_CONNECTIONS ?? 4_096,
    },
    metricsPort: metricsPort(vars),
    healthPort: healthPort(vars),
    cacheBudgetBytes: (vars.CACHE_BUDGET_MB ?? DEFAULT_CACHE_BUDGET_MB) * 1024 * 1024,
    trustProxy: trustProxy(vars.TRUST_PROXY),
    tls: tlsFiles(vars),
  };
}

/** Both files or neither: a certificate without its key (or the reverse) cannot serve HTTPS. */
function tlsFiles(vars: EnvironmentVariables): TlsConfig | null {
  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } = vars;
  if (certFile && keyFile) return { certFile, keyFile };
  if (certFile) throw new ConfigError('Invalid configuration: TLS_KEY_FILE must be set with TLS_CERT_FILE');
  if (keyFile) throw new ConfigError('Invalid configuration: TLS_CERT_FILE must be set with TLS_KEY_FILE');
  return null;
}

/** Unset or 0 trusts no proxy: a client's own X-Forwarded-* headers are then ignored. */
function trustProxy(value: string | undefined): TrustProxy {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return trustProxyList(value);
}

/** Metrics never share the public listener: the public port must not expose them. */
function metricsPort(vars: EnvironmentVariables): number | null {
  if (vars.METRICS_PORT === undefined) return null;
  if (vars.METRICS_PORT === (vars.PORT ?? 3000)) {
    throw new ConfigError('Invalid configuration: METRICS_PORT must differ from PORT');
  }
  return vars.METRICS_PORT;
}

/** Probes get a listener of their own: it shares a port with neither the API nor the metrics. */
function healthPort(vars: EnvironmentVariables): number | null {
  if (vars.HEALTH_PORT === undefined) return null;
  if (vars.HEALTH_PORT === (vars.PORT ?? 3000)) {
    throw new ConfigError('Invalid configuration: HEALTH_PORT must differ from PORT');
  }
  if (vars.HEALTH_PORT === vars.METRICS_PORT) {
    throw new ConfigError('Invalid configuration: HEALTH_PORT must differ from METRICS_PORT');
  }
  return vars.HEALTH_PORT;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
