import { type DynamicModule, Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { type AppConfig, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MigrateCommand } from './migrate.command';

/** The operator CLI: the same configuration, database and services as the server, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, CatalogModule],
      providers: [MigrateCommand],
    };
  }
}
