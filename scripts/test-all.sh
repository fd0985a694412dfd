#!/usr/bin/env bash
# The whole test suite in five parts: unit tests; the e2e files against real PostgreSQL; the
# PostgreSQL-only e2e files (*.pg.e2e-spec.ts: several connections, other sessions, a replica, a
# pooler); the e2e files against the embedded database (PGlite); and, after the PostgreSQL-only
# files, the conformance-facing files again with FAST_ANSWERS=0 (stock NestJS on Express). Every
# part runs even when another failed; the summary at the end gives each part's counts and `N passed,
# N failed` (from Jest's --json results), and the exit status is non-zero when anything failed.
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
rm -f "${results}"/{unit,postgres,postgres-only,embedded,stock-answers}.{json,status}

# run_part NAME [jest arguments...]: runs one part to its end, each line of its output prefixed with
# [NAME] (parts run side by side), and leaves NAME=<exit code>=<seconds> in ${results}/NAME.status.
run_part() {
  local name="$1" started code
  shift
  started=$(date +%s)
  npx jest "$@" --json --outputFile="${results}/${name}.json" 2>&1 | sed -u "s/^/[${name}] /"
  code=${PIPESTATUS[0]}
  echo "${name}=${code}=$(($(date +%s) - started))" >"${results}/${name}.status"
}

# Three lanes side by side, each running its files one at a time in one Jest worker (replaced when
# it holds more than 1 GB after a file): most of an e2e file's time is spent waiting (servers
# starting and draining, replicas replaying, statistics settling), and every file has its own
# database. The PostgreSQL-only files keep a lane of their own, so no two of them start replicas or
# poolers at once.
lane=(--maxWorkers=1 --workerIdleMemoryLimit=1GB)
echo "== unit tests (node $(node --version)), then e2e tests against the embedded database (PGlite), beside"
echo "   e2e tests against PostgreSQL (the files both databases run), beside the PostgreSQL-only files"
(
  run_part unit --selectProjects unit
  TEST_DATABASE=embedded run_part embedded --selectProjects e2e "${lane[@]}" \
    --testPathIgnorePatterns '\.pg\.e2e-spec\.ts$'
) &
embedded_lane=$!
TEST_DATABASE=postgres run_part postgres --selectProjects e2e "${lane[@]}" \
  --testPathIgnorePatterns '\.pg\.e2e-spec\.ts$' &
postgres_lane=$!
(
  TEST_DATABASE=postgres run_part postgres-only --selectProjects e2e "${lane[@]}" \
    --testPathPatterns '\.pg\.e2e-spec\.ts$'
  # The contract's answers must not depend on the fast answer path: the same files with it off.
  FAST_ANSWERS=0 TEST_DATABASE=postgres run_part stock-answers --selectProjects e2e "${lane[@]}" \
    --testPathPatterns 'test/(http-contract|http-framing|conditional-requests|security-headers|plain-route|openapi-conformance|fast-answers)\.e2e-spec\.ts$'
) &
postgres_only_lane=$!
wait "${embedded_lane}" "${postgres_lane}" "${postgres_only_lane}"

parts=()
for name in unit postgres postgres-only embedded stock-answers; do
  # A part with no status was killed before it ended: the summary reports it with no results.
  parts+=("$(cat "${results}/${name}.status" 2>/dev/null || echo "${name}=killed=0")")
done
node scripts/test-summary.js "${results}" "${parts[@]}"
