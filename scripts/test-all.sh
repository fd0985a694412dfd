#!/usr/bin/env bash
# The whole test suite: unit tests, then the e2e suites against real PostgreSQL and against the
# embedded database (PGlite). Files named *.pg.e2e-spec.ts need a server (several connections,
# other sessions) and run only against PostgreSQL.
#   TEST_POSTGRES_URL  admin URL used to create throwaway databases
#                      (default postgres://postgres@127.0.0.1:5432/postgres)
set -euo pipefail
cd "$(dirname "$0")/.."

# The flag exposes Node's vm.SourceTextModule to Jest: through it Jest loads NestJS's ES-module packages
# from our CommonJS tests (require(esm), Node 24.9+) and PGlite's WebAssembly (a dynamic import()).
export NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-vm-modules --no-warnings=ExperimentalWarning"

echo "== build (the CLI tests run dist/cli.js)"
npm run build

echo "== unit tests (node $(node --version))"
npx jest --selectProjects unit

echo "== e2e tests against PostgreSQL"
TEST_DATABASE=postgres npx jest --selectProjects e2e --runInBand

echo "== e2e tests against the embedded database (PGlite)"
TEST_DATABASE=embedded npx jest --selectProjects e2e --runInBand --testPathIgnorePatterns '\.pg\.e2e-spec\.ts$'
