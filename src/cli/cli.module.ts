import { type DynamicModule, Module } from '@nestjs/common';
import { ApiKeyService } from '../auth/api-key.service';
import { ApiKeysModule } from '../auth/api-keys.module';
import { KEY_COMMANDS } from '../auth/keys.commands';
import { CatalogStoreModule } from '../catalog/catalog-store.module';
import { type AppConfig, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { APPLIED_MIGRATIONS, DatabaseModule } from '../database/database.module';
import { MigrateCommand } from '../database/migrate.command';
import { ENTITIES } from '../entities';
import { CatalogIngestService } from '../ingest/catalog-ingest.service';
import { IngestCommand } from '../ingest/ingest.command';
import { IngestModule } from '../ingest/ingest.module';

const COMMANDS = [MigrateCommand, ...KEY_COMMANDS, IngestCommand];

/** The operator CLI: the same configuration, database and services as the server, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        ApiKeysModule,
        CatalogStoreModule,
        IngestModule,
      ],
      providers: COMMANDS,
    };
  }

  /**
   * For `--help` only: the commands without a database or configuration, so help works anywhere
   * (even while the server holds the embedded database). Their services are never called.
   */
  static forHelp(): DynamicModule {
    return {
      module: CliModule,
      providers: [
        ...COMMANDS,
        { provide: ApiKeyService, useValue: {} },
        { provide: CatalogIngestService, useValue: {} },
        { provide: APPLIED_MIGRATIONS, useValue: [] },
      ],
    };
  }
}
