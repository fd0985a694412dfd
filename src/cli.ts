import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module';
import { reportCliFailure } from './cli/cli-errors';

async function main(): Promise<void> {
  await CommandFactory.run(CliModule.forRoot(), {
    logger: false,
    abortOnError: false,
    cliName: 'catalog-api',
    errorHandler: reportCliFailure,
    serviceErrorHandler: reportCliFailure,
  });
}

main().catch(reportCliFailure);
