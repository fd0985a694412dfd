#!/usr/bin/env bash
# The whole test suite: unit tests, then the e2e suites against real PostgreSQL and against the
# embedded database (PGlite). Files named *.pg.e2e-spec.ts need a server (several connections,
# other sessions) and run only against PostgreSQL. Every part runs even when an earlier one failed;
# the summary at the end gives each part's counts and `N passed, N failed` (from Jest's --json
# results), and the exit status is non-zero when anything failed.
#   --no-build         skip `npm run build` (CI, which has just built)
#   TEST_POSTGRES_URL  admin URL used to create throwaway databases
#                      (default postgres://postgres@127.0.0.1:5432/postgres)
#   TEST_RESULTS_DIR   keep each part's Jest JSON results there (default: a temporary folder)
set -uo pipefail
cd "$(dirname "$0")/.."

# The flag exposes Node's vm.SourceTextModule to Jest: through it Jest loads NestJS's ES-module packages
# from our CommonJS tests (require(esm), Node 24.9+) and PGlite's WebAssembly (a dynamic import()).
export NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-vm-modules --no-warnings=ExperimentalWarning"

if [ "${1:-}" != "--no-build" ]; then
  echo "== build (the CLI and start-up tests run dist/)"
  if ! npm run build; then
    echo "build failed: no test ran"
    exit 1
  fi
fi

results="${TEST_RESULTS_DIR:-}"
if [ -z "${results}" ]; then
  results="$(mktemp -d)"
  trap 'rm -rf "${results}"' EXIT
fi
mkdir -p "${results}"
rm -f "${results}"/{unit,postgres,embedded}.json
parts=()

# run_part NAME [jest arguments...]: runs one part to its end and records its exit code and time.
run_part() {
  local name="$1" started code
  shift
  started=$(date +%s)
  npx jest "$@" --json --outputFile="${results}/${name}.json"
  code=$?
  parts+=("${name}=${code}=$(($(date +%s) - started))")
}

echo "== unit tests (node $(node --version))"
run_part unit --selectProjects unit

echo "== e2e tests against PostgreSQL"
TEST_DATABASE=postgres run_part postgres --selectProjects e2e --runInBand

echo "== e2e tests against the embedded database (PGlite)"
TEST_DATABASE=embedded run_part embedded --selectProjects e2e --runInBand \
  --testPathIgnorePatterns '\.pg\.e2e-spec\.ts$'

node scripts/test-summary.js "${results}" "${parts[@]}"
