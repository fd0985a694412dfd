import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/app-config';
import { EmbeddedDatabaseBusyError } from '../database/embedded-lock';
import { TlsFileError } from '../server/tls-credentials';
import { redactUrl } from './database-label';

/** A start-up failure an operator caused; its message is one line naming the variable and the cause. */
export class StartupFailure extends Error {}

/** The fields Node's system errors, pg's server errors and ioredis' errors carry. */
interface ErrorFields {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  severity?: unknown;
  message?: unknown;
}

const fieldsOf = (error: unknown): ErrorFields =>
  typeof error === 'object' && error !== null ? (error as ErrorFields) : {};
const firstLine = (error: unknown): string =>
  String(fieldsOf(error).message ?? error).split('\n')[0] || String(error);

/** Where a connection was going, as the error says (`127.0.0.1:5432`), or the URL's host. */
function target(error: ErrorFields, url: string): string {
  if (typeof error.address === 'string') return `${error.address}:${String(error.port ?? '')}`;
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/** Network failures shared by PostgreSQL and Redis connections; null when the error is not one. */
function networkCause(error: ErrorFields, url: string): string | null {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused at ${target(error, url)} (nothing listens there)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `host ${String(error.hostname ?? target(error, url))} cannot be resolved`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${target(error, url)} is unreachable (${error.code})`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${target(error, url)} closed the connection (${error.code})`;
    default:
      return null;
  }
}

/** Why a PostgreSQL connection or its first statements failed, or null for other errors. */
export function databaseCause(error: unknown, url: string): string | null {
  const fields = fieldsOf(error);
  const network = networkCause(fields, url);
  if (network) return network;
  const message = firstLine(error);
  // pg's server errors carry a severity and a five-character SQLSTATE; only the classes that say
  // the connection settings are wrong are the operator's (others are the command's own errors).
  const sqlState = typeof fields.severity === 'string' && typeof fields.code === 'string' ? fields.code : '';
  if (sqlState === '3D000') return message;
  if (sqlState.startsWith('28')) return `the server refused the credentials: ${message}`;
  if (sqlState === '42501') return `the user lacks a privilege: ${message}`;
  if (sqlState === '53300') return `the server has no connection slot free: ${message}`;
  if (sqlState.startsWith('08') || sqlState.startsWith('57P')) {
    return `the server refused: ${message} (SQLSTATE ${sqlState})`;
  }
  if (/connection timeout|timeout expired/i.test(message))
    return `no answer from ${target(fields, url)} in time`;
  if (/\bSSL\b/.test(message)) return message;
  return null;
}

/** One line for a failure of `app.listen` (PORT or HOST), or the error itself when it is neither. */
export function listenFailure(error: unknown, config: Pick<AppConfig, 'port' | 'host'>): unknown {
  const { port, host } = config;
  switch (fieldsOf(error).code) {
    case 'EADDRINUSE':
      return new StartupFailure(`PORT ${port}: ${host}:${port} is already in use by another process`);
    case 'EACCES':
      return new StartupFailure(
        `PORT ${port}: not allowed to listen on ${host}:${port} (ports below 1024 need privileges)`,
      );
    case 'EADDRNOTAVAIL':
      return new StartupFailure(`HOST ${host}: not an address of this machine`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new StartupFailure(`HOST ${host}: cannot be resolved to an address`);
    case 'EAFNOSUPPORT':
      return new StartupFailure(`HOST ${host}: its address family is not supported here`);
    default:
      return error;
  }
}

/** One line for a file-system error on the embedded database's folder. */
export function dataDirFailure(error: unknown, dataDir: string): unknown {
  const code = fieldsOf(error).code;
  if (typeof code !== 'string' || !code.startsWith('E')) return error;
  const cause: Record<string, string> = {
    ENOTDIR: 'a file stands where a folder should be',
    EEXIST: 'a file stands where a folder should be',
    EACCES: 'not writable by this process',
    EPERM: 'not writable by this process',
    EROFS: 'on a read-only file system',
    ENOSPC: 'no space left on the device',
  };
  return new StartupFailure(`DATA_DIR ${dataDir}: ${cause[code] ?? firstLine(error)}`);
}

/** One line for a Redis that cannot be used at start. */
export function redisFailure(error: unknown, url: string): StartupFailure {
  const fields = fieldsOf(error);
  const message = firstLine(error);
  const cause =
    networkCause(fields, url) ??
    (/^(NOAUTH|WRONGPASS)/.test(message) ? `the server refused the credentials: ${message}` : message);
  return new StartupFailure(`REDIS_URL (${redactUrl(url)}): ${cause}`);
}

/**
 * The one line for a failure an operator can cause: the variable and the cause. Null for anything
 * else (a bug, or a command's own error), which the caller reports by its message.
 */
export function describeStartupFailure(error: unknown, config?: AppConfig): string | null {
  if (
    error instanceof ConfigError ||
    error instanceof StartupFailure ||
    error instanceof TlsFileError ||
    error instanceof EmbeddedDatabaseBusyError
  ) {
    return error.message;
  }
  if (config?.database.kind === 'postgres') {
    const cause = databaseCause(error, config.database.url);
    if (cause) return `DATABASE_URL (${redactUrl(config.database.url)}): ${cause}`;
  }
  return null;
}

/** An error's first line, for the one line printed when nothing more specific applies. */
export function errorFirstLine(error: unknown): string {
  return firstLine(error);
}
