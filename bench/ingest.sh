#!/usr/bin/env bash
# Ingest benchmark on real PostgreSQL: a 1.3M-title generated catalog (with ratings and enrichment),
# loaded once into an empty database, then re-ingested while the API answers a steady load.
# Prints wall time and peak RSS of the CLI (GNU time) and what the API answered during the re-ingest.
#   bash bench/ingest.sh            (needs PostgreSQL on 127.0.0.1:5432; ~6 minutes, ~1.2 GB in bench/out)
#   PROBE_CONCURRENCY=1 bash bench/ingest.sh   (a lighter API load during the re-ingest; default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${ROWS:-1860000}"   # ~70% are kept types: 1.86M rows give ~1.3M titles
out="bench/out/catalog-${rows}"
db="${BENCH_DB:-catalog_bench_ingest}"
admin="postgres://postgres@127.0.0.1:5432/postgres"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}" LOG_LEVEL=warn

[ -f dist/cli.js ] || npm run build
[ -f "${out}/enrichment.ndjson" ] || npx ts-node --transpile-only bench/generate-catalog.ts --titles "${rows}" --out "${out}"
psql "${admin}" -qc "DROP DATABASE IF EXISTS ${db}" -c "CREATE DATABASE ${db}"

ingest() {
  /usr/bin/time -f 'wall %e s, peak RSS %M KB' node dist/cli.js catalog:ingest \
    --basics "${out}/title.basics.tsv" --ratings "${out}/title.ratings.tsv" --enrichment "${out}/enrichment.ndjson" --json
}

echo "== first ingest into an empty database"
ingest

echo "== re-ingest of the same data while the API answers"
key=$(node dist/cli.js keys:create --name bench --rpm 1000000 --monthly-quota 1000000000 --json | sed 's/.*"key":"\([^"]*\)".*/\1/')
PORT=3917 node dist/main.js > bench/out/server.log 2>&1 & server=$!
trap 'kill ${server} 2>/dev/null || true; rm -f bench/out/.stop' EXIT
for _ in $(seq 1 50); do curl -sf http://127.0.0.1:3917/health >/dev/null && break; sleep 0.2; done
rm -f bench/out/.stop
npx ts-node --transpile-only bench/api-probe.ts --url http://127.0.0.1:3917 --key "${key}" --seconds 600 --concurrency "${PROBE_CONCURRENCY:-4}" --stop-file bench/out/.stop > bench/out/probe.json & probe=$!
sleep 3
ingest
touch bench/out/.stop; wait ${probe}
echo "API during the re-ingest: $(cat bench/out/probe.json)"
psql "${admin}" -qc "DROP DATABASE IF EXISTS ${db} WITH (FORCE)"
