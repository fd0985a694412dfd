import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { KEY_COMMANDS } from '../auth/keys.commands';
import { CatalogModule } from '../catalog/catalog.module';
import { type AppConfig, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { IngestCommand } from '../ingest/ingest.command';
import { IngestModule } from '../ingest/ingest.module';
import { MigrateCommand } from '../database/migrate.command';

/** The operator CLI: the same configuration, database and services as the server, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule, CatalogModule, IngestModule],
      providers: [MigrateCommand, ...KEY_COMMANDS, IngestCommand],
    };
  }
}
