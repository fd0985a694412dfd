#!/usr/bin/env bash
# A/B: base (8cb26b4, fixed concurrency) vs main (adaptive), alternated, 3 rounds.
set -u
KEY=$(node -e 'console.log(require("/work/bench-data/key.json").key)')
DB=postgres://postgres@127.0.0.1:5432/bench_1m3
for round in 1 2 3; do
  for variant in base main; do
    dir=/work/main; [ $variant = base ] && dir=/work/wt/base-8cb
    (cd $dir && DATABASE_URL=$DB PORT=4101 METRICS_PORT=9464 LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 exec node dist/main.js > /work/bench-data/overload/server-$variant-$round.log 2>&1) & echo $! > /work/bench-data/overload/pid
    for _ in $(seq 1 60); do curl -sf http://127.0.0.1:4101/health >/dev/null && break; sleep 0.5; done
    echo "== $variant round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    (cd /work/main && npx ts-node --transpile-only bench/search-overload.ts --url http://127.0.0.1:4101 --key "$KEY" --database-url $DB --seconds 10 --metrics-url http://127.0.0.1:9464/metrics --honor-retry-after)
    curl -s http://127.0.0.1:9464/metrics | grep -E "^search_concurrency_limit" || true
    kill $(cat /work/bench-data/overload/pid); while ss -ltn | grep -q ":4101 "; do sleep 0.5; done
  done
done
