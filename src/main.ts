import { type AppConfig, loadConfig } from './config/app-config';
import { startEmbeddedDatabase } from './startup/embedded-start';
import { describeStartupFailure, errorFirstLine } from './startup/startup-failure';
import { startTracingIfAsked } from './tracing/tracing-config';

let config: AppConfig | undefined;

/**
 * Only the configuration and the embedded database's opener are loaded before the database is set
 * going; Nest and the application (about a second of module loading) load while it starts.
 */
async function main(): Promise<void> {
  config = loadConfig();
  const embedded =
    config.database.kind === 'embedded' ? startEmbeddedDatabase(config.database.dataDir) : null;
  // Awaited below; this only keeps a failure from counting as unhandled while the modules load.
  embedded?.catch(() => undefined);
  // Before the application's modules load, so its instrumentations see them; nothing when off.
  const tracing = await startTracingIfAsked(process.env, config);
  const { startServer } = await import('./server-start');
  await embedded;
  await startServer(config, {}, tracing);
}

main().catch((error: unknown) => {
  // Before the logger exists a stack trace would be noise; LOG_LEVEL=debug shows it for a bug.
  const line = describeStartupFailure(error, config) ?? `start-up failed: ${errorFirstLine(error)}`;
  console.error(`error: ${line}`);
  if (config && ['debug', 'trace'].includes(config.logLevel)) console.error(error);
  process.exit(1);
});
