import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { dataSourceOptions } from './data-source-options';
import { runPendingMigrations } from './migration-runner';

/** A migration this build would add after the recorded ones. */
class AddedLater9999999999999 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE added_later (id int)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE added_later');
  }
}

describe('runPendingMigrations', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ kind: 'embedded', dataDir: 'memory://' }, []));
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  it('applies every migration to an empty database, then answers a start with all recorded without running them', async () => {
    const applied = await runPendingMigrations(dataSource);
    expect(applied.map((migration) => migration.name)).toEqual(MIGRATIONS.map((migration) => migration.name));

    const run = jest.spyOn(dataSource, 'runMigrations');
    expect(await runPendingMigrations(dataSource)).toEqual([]);
    expect(run).not.toHaveBeenCalled();
    run.mockRestore();
  });

  it('still applies a migration that is not recorded', async () => {
    dataSource.migrations.push(new AddedLater9999999999999());
    const applied = await runPendingMigrations(dataSource);
    expect(applied.map((migration) => migration.name)).toEqual(['AddedLater9999999999999']);
    expect(await dataSource.query("SELECT to_regclass('added_later') IS NOT NULL AS present")).toEqual([
      { present: true },
    ]);
  });
});
