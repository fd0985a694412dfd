import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CLI_HELP_CONFIGURATION, isHelpRequest } from './cli/cli-help';
import { CliModule } from './cli/cli.module';
import { reportCliFailure } from './cli/cli-errors';
import { isVersionRequest, packageVersion } from './cli/cli-version';
import { loadConfig } from './config/app-config';
import { prepareDataDir } from './startup/preflight';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let root = CliModule.forHelp();
  if (!isHelpRequest(args) && !isVersionRequest(args)) {
    const config = loadConfig();
    if (config.database.kind === 'embedded') prepareDataDir(config.database.dataDir);
    root = CliModule.forRoot(config);
  }
  await CommandFactory.run(root, {
    logger: false,
    abortOnError: false,
    cliName: 'catalog-api',
    version: packageVersion(),
    helpConfiguration: CLI_HELP_CONFIGURATION,
    errorHandler: reportCliFailure,
    serviceErrorHandler: reportCliFailure,
  });
}

main().catch(reportCliFailure);
