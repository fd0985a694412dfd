#!/usr/bin/env bash
# What the Prometheus instrumentation costs per request: the same server on PostgreSQL with the
# sample catalog, metrics off (METRICS_PORT unset) and on, interleaved 3 times; autocannon,
# 20 connections, 10 s per run after a 3 s warm-up, on a point lookup and on /health.
#   bash bench/metrics-overhead.sh   (needs PostgreSQL on 127.0.0.1:5432; ~3 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
db="${BENCH_DB:-api_bench_metrics}"
admin="postgres://postgres@127.0.0.1:5432/postgres"
port="${BENCH_PORT:-4540}"
metrics_port="${BENCH_METRICS_PORT:-4541}"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}" LOG_LEVEL=warn

[ -f dist/main.js ] || npm run build
psql "${admin}" -qc "DROP DATABASE IF EXISTS ${db}" -c "CREATE DATABASE ${db}"
trap 'psql "${admin}" -qc "DROP DATABASE IF EXISTS ${db} WITH (FORCE)"' EXIT
node dist/cli.js db:migrate > /dev/null
node dist/cli.js catalog:ingest --basics sample-data/title.basics.tsv --ratings sample-data/title.ratings.tsv \
  --enrichment sample-data/enrichment.ndjson > /dev/null
key=$(node dist/cli.js keys:create --name bench --rpm 1000000 --monthly-quota 1000000000 --json | sed 's/.*"key":"\([^"]*\)".*/\1/')

run() { # $1 = off|on, $2 = path
  local env=(PORT="${port}")
  [ "$1" = on ] && env+=(METRICS_PORT="${metrics_port}")
  env "${env[@]}" node dist/main.js > /dev/null 2>&1 & local server=$!
  until curl -sf "localhost:${port}/health" > /dev/null; do sleep 0.2; done
  npx autocannon -c 20 -d 3 -H "Authorization=Bearer ${key}" "http://localhost:${port}$2" > /dev/null 2>&1
  local rps
  rps=$(npx autocannon -c 20 -d 10 -j -H "Authorization=Bearer ${key}" "http://localhost:${port}$2" 2>/dev/null \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(r.requests.average, r.latency.p50, r.latency.p99, r.non2xx)})')
  kill "${server}"; wait "${server}" 2>/dev/null || true
  echo "$1 $2 req/s,p50,p99,non2xx: ${rps}"
}

for path in /v1/titles/tt0068646 /health; do
  for i in 1 2 3; do run off "${path}"; run on "${path}"; done
done
