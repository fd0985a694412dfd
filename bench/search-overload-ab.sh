#!/usr/bin/env bash
# A/B of bench/search-overload.ts against built dists, alternating round by round, each
# round on a fresh server over a full-scale catalog. Build each variant (npm run build) and copy its
# dist/ to bench/out/dist-<variant> (inside the repository, so node_modules resolves), and
# package.json to bench/out/ (a dist's Node floor check reads ../package.json), then:
#   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_1m3 BENCH_KEY=mov_live_… \
#     VARIANTS="main floor2" ROUNDS=7 bash bench/search-overload-ab.sh
# Each round: a 10 s warm-up, then CYCLES (default 2) × alone, beside, beside, alone phases of
# SECONDS_PER_PHASE (default 5) seconds. Servers run with the image's V8 flags (SERVER_NODE_OPTIONS)
# and probes go to both the API port and HEALTH_PORT. Server logs go to bench/out/overload-logs/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DB=${BENCH_DATABASE_URL:?set BENCH_DATABASE_URL to the catalog database}
KEY=${BENCH_KEY:?set BENCH_KEY to an API key of that database}
LOGS="$ROOT/bench/out/overload-logs"
mkdir -p "$LOGS"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for variant in ${VARIANTS:?set VARIANTS to the dist names under bench/out}; do
    dir="$ROOT/bench/out/dist-$variant"
    (DATABASE_URL=$DB PORT=4101 METRICS_PORT=9464 HEALTH_PORT=8081 LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 \
      exec node ${SERVER_NODE_OPTIONS:---max-old-space-size=192 --max-semi-space-size=8} "$dir/main.js" > "$LOGS/server-$variant-$round.log" 2>&1) & pid=$!
    for _ in $(seq 1 60); do curl -sf http://127.0.0.1:8081/health >/dev/null && break; sleep 0.5; done
    echo "== $variant round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    (cd "$ROOT" && npx ts-node --transpile-only bench/search-overload.ts --url http://127.0.0.1:4101 --key "$KEY" \
      --database-url "$DB" --seconds "${SECONDS_PER_PHASE:-5}" --cycles "${CYCLES:-2}" --metrics-url http://127.0.0.1:9464/metrics --warmup 10 \
      --health-url http://127.0.0.1:8081/health)
    kill $pid; while ss -ltn | grep -q ":4101 "; do sleep 0.5; done
  done
done
