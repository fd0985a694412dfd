import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import { APPLIED_MIGRATIONS } from './database.module';

/** Migrations are applied when the process connects (under the advisory lock); this reports them. */
@Command({ name: 'db:migrate', description: 'Apply pending database migrations' })
export class MigrateCommand extends CommandRunner {
  constructor(@Inject(APPLIED_MIGRATIONS) private readonly applied: string[]) {
    super();
  }

  async run(): Promise<void> {
    console.log(
      this.applied.length === 0
        ? 'Database schema is up to date.'
        : `Applied ${this.applied.length} migration(s): ${this.applied.join(', ')}`,
    );
  }
}
