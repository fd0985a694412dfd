#!/usr/bin/env node
// Writes the OpenAPI document the built service serves at /openapi.json (from dist/) to a file, for
// the linters (`npm run lint:openapi`) and for consumers who want it without running the service.
// The application is built in Nest's preview mode: its routes and schemas, no database, no server.
//   node scripts/write-openapi.js [OUTPUT]   (default: dist/openapi.json)
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { NestFactory } = require('@nestjs/core');

async function main() {
  const dist = join(__dirname, '..', 'dist', 'src');
  const { AppModule } = require(join(dist, 'app.module'));
  const { loadConfig } = require(join(dist, 'config', 'app-config'));
  const { createOpenApiDocument } = require(join(dist, 'openapi', 'openapi-document'));
  const config = { ...loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }), firstRunSetup: false };
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false });
  const output = process.argv[2] ?? join(dist, '..', 'openapi.json');
  writeFileSync(output, `${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`);
  await app.close();
  console.log(`wrote ${output}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
