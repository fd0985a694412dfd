#!/usr/bin/env bash
# Embedded start: time from `node dist/main.js` to the first healthy /health, and the server's RSS,
# for a first start from an empty DATA_DIR and for a restart of the same folder. RUNS runs each
# (default 3); prints every run and the medians. Needs `npm run build` first (it builds dist/embedded-seed).
#   bench/embedded-start.sh                  with the prebuilt seed (what `npm start` does)
#   bench/embedded-start.sh --no-seed        the seed moved aside for the run: initdb, migrations and the
#                                            sample ingest in the server's process (the previous behaviour)
#   bench/embedded-start.sh --against DIR    also another built checkout (e.g. main's), each of its
#                                            starts right after the same start of this one, so both
#                                            see the same machine load; prints the ratios of the medians;
#                                            AGAINST_NODE=<node binary> runs it on another Node than this one's
# PORT defaults to 4450. RSS is read from /proc 1 s after /health first answered (VmRSS) and the
# peak (VmHWM) over the process's life so far, with the CPU time (user + system, all threads) it had
# used by then: on a shared machine that moves far less with the load than the wall time does.
# The servers stop with SHUTDOWN_GRACE_MS=0 (no drain wait).
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD

port="${PORT:-4450}"
runs="${RUNS:-3}"
seed=dist/embedded-seed
other=""
case "${1:-}" in
  --no-seed)
    mv "$seed" "$seed.aside"
    trap 'mv "$seed.aside" "$seed"' EXIT
    ;;
  --against)
    other=$(cd "${2:?--against needs a checkout}" && pwd)
    [ -f "$other/dist/main.js" ] || { echo "no $other/dist/main.js: build it first" >&2; exit 1; }
    ;;
esac
[ "${1:-}" = "--no-seed" ] || [ -d "$seed/pglite" ] || { echo "no $seed: run npm run build" >&2; exit 1; }

this_node=$(command -v node)
other_node="${AGAINST_NODE:-$this_node}"
now_ms() { date +%s%3N; }

# One start of the checkout in $1 on DATA_DIR $2 with the Node binary $3: prints "ms rss_mb hwm_mb
# cpu_ms", then stops it.
measure() {
  local root="$1" data_dir="$2" node_binary="$3" started pid rss hwm elapsed cpu
  started=$(now_ms)
  (cd "$root" && DATA_DIR="$data_dir" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 \
    exec "$node_binary" dist/main.js >/dev/null 2>&1) &
  pid=$!
  until curl -sf "http://127.0.0.1:${port}/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "the server in $root exited" >&2; exit 1; }
    sleep 0.02
  done
  elapsed=$(( $(now_ms) - started ))
  sleep 1
  rss=$(awk '/VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
  hwm=$(awk '/VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
  # utime and stime, fields 14 and 15 after the parenthesised command name, in clock ticks.
  cpu=$(sed 's/^.*) //' "/proc/$pid/stat" | awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($12 + $13) * 1000 / hz }')
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  echo "$elapsed $rss $hwm $cpu"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

first=()
restart=()
other_first=()
other_restart=()
for run in $(seq 1 "$runs"); do
  dir=$(mktemp -d -t catalog-embedded-start-XXXXXX)
  mkdir "$dir/this" "$dir/other"
  first+=("$(measure "$here" "$dir/this" "$this_node")")
  [ -z "$other" ] || other_first+=("$(measure "$other" "$dir/other" "$other_node")")
  restart+=("$(measure "$here" "$dir/this" "$this_node")")
  [ -z "$other" ] || other_restart+=("$(measure "$other" "$dir/other" "$other_node")")
  rm -rf "$dir"
  echo "run $run: first start ${first[-1]}; restart ${restart[-1]}  (ms to healthy, RSS MB, peak RSS MB, CPU ms)"
  [ -z "$other" ] || echo "  against: first start ${other_first[-1]}; restart ${other_restart[-1]}"
done

column_median() { printf '%s\n' "${@:2}" | cut -d' ' -f"$1" | median; }
report() {
  local label="$1"; shift
  printf '%-16s median: %s ms to healthy /health, RSS %s MB, peak RSS %s MB, CPU %s ms\n' "$label" \
    "$(column_median 1 "$@")" "$(column_median 2 "$@")" "$(column_median 3 "$@")" "$(column_median 4 "$@")"
}
report "first" "${first[@]}"
report "restart" "${restart[@]}"
if [ -n "$other" ]; then
  report "against first" "${other_first[@]}"
  report "against restart" "${other_restart[@]}"
  awk -v a="$(column_median 1 "${first[@]}")" -v b="$(column_median 1 "${other_first[@]}")" \
      -v c="$(column_median 1 "${restart[@]}")" -v d="$(column_median 1 "${other_restart[@]}")" \
    'BEGIN { printf "ratio this/against (time to healthy): first start %.2f, restart %.2f\n", a / b, c / d }'
  awk -v a="$(column_median 4 "${first[@]}")" -v b="$(column_median 4 "${other_first[@]}")" \
      -v c="$(column_median 4 "${restart[@]}")" -v d="$(column_median 4 "${other_restart[@]}")" \
    'BEGIN { printf "ratio this/against (CPU time):         first start %.2f, restart %.2f\n", a / b, c / d }'
fi
