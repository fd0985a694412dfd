#!/usr/bin/env bash
# Issue 24.4 A/B: built dists alternating round by round, each round on a fresh server.
#   VARIANTS="main floor2" ROUNDS=7 bash <this script>   (dists in /work/main/bench/out/dist-<variant>)
set -u
KEY=$(node -e 'console.log(require("/work/bench-data/key.json").key)')
DB=postgres://postgres@127.0.0.1:5432/bench_1m3
mkdir -p /work/bench-data/overload
for round in $(seq 1 ${ROUNDS:-3}); do
  for variant in ${VARIANTS:-main floor2}; do
    dir=/work/main/bench/out/dist-$variant
    (DATABASE_URL=$DB PORT=4101 METRICS_PORT=9464 LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 exec node $dir/main.js > /work/bench-data/overload/server-$variant-$round.log 2>&1) & pid=$!
    for _ in $(seq 1 60); do curl -sf http://127.0.0.1:4101/health >/dev/null && break; sleep 0.5; done
    echo "== $variant round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    (cd /work/main && npx ts-node --transpile-only bench/search-overload.ts --url http://127.0.0.1:4101 --key "$KEY" --database-url $DB --seconds 10 --metrics-url http://127.0.0.1:9464/metrics --honor-retry-after --warmup 10)
    kill $pid; while ss -ltn | grep -q ":4101 "; do sleep 0.5; done
  done
done
