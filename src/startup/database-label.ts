import { resolve } from 'node:path';
import type { DatabaseConfig } from '../config/app-config';

/**
 * A URL as safe to print as it is useful: scheme, host, port and path; never the user, password or
 * query (where `?password=` and `sslkey=` may live).
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** Which database a process uses, for logs and error lines, without credentials. */
export function databaseLabel(database: DatabaseConfig): string {
  if (database.kind === 'postgres') return redactUrl(database.url);
  if (database.dataDir.startsWith('memory://')) return 'embedded PGlite in memory';
  return `embedded PGlite in ${resolve(database.dataDir)}`;
}
