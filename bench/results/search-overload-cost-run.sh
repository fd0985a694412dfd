#!/usr/bin/env bash
# Issue 24.4, the search share weighed by cost: main (da0ce39: 5% of requests) against branch builds
# of the search-cost branch, each built into .bench-dist-<variant> (npm run build, then
# cp -r dist .bench-dist-w5 with SEARCH_COST_IN_REQUESTS = 5, and so on), alternating round by round,
# each round on a fresh server. Run from the branch's worktree:
#   VARIANTS="main w5" ROUNDS=3 WARMUP=10 bench/results/search-overload-cost-run.sh
# (bench/search-overload.ts on main has no --warmup: the branch's copy runs for every variant.)
set -u
KEY=$(node -e 'console.log(require("/work/bench-data/key.json").key)')
DB=postgres://postgres@127.0.0.1:5432/bench_1m3
WT=$(pwd)
mkdir -p /work/bench-data/overload
for round in $(seq 1 ${ROUNDS:-3}); do
  for variant in ${VARIANTS:-main w5}; do
    case $variant in
      main) dir=/work/main/dist ;;
      *) dir=$WT/.bench-dist-$variant ;;
    esac
    (DATABASE_URL=$DB PORT=4101 METRICS_PORT=9464 LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 exec node $dir/main.js > /work/bench-data/overload/server-$variant-$round.log 2>&1) & pid=$!
    for _ in $(seq 1 60); do curl -sf http://127.0.0.1:4101/health >/dev/null && break; sleep 0.5; done
    echo "== $variant round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    npx ts-node --transpile-only bench/search-overload.ts --url http://127.0.0.1:4101 --key "$KEY" --database-url $DB --seconds 10 --metrics-url http://127.0.0.1:9464/metrics --honor-retry-after --warmup ${WARMUP:-0}
    kill $pid; while ss -ltn | grep -q ":4101 "; do sleep 0.5; done
  done
done
