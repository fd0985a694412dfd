#!/usr/bin/env bash
# Embedded start: time from `node dist/main.js` to the first healthy /health, and the server's RSS,
# for a first start from an empty DATA_DIR and for a restart of the same folder. Three runs each;
# prints every run and the medians. Needs `npm run build` first (it builds dist/embedded-seed).
#   bench/embedded-start.sh            with the prebuilt seed (what `npm start` does)
#   bench/embedded-start.sh --no-seed  the seed moved aside for the run: initdb, migrations and the
#                                      sample ingest in the server's process (the previous behaviour)
# PORT defaults to 4450. RSS is read from /proc 1 s after /health first answered (VmRSS) and the
# peak (VmHWM) over the process's life so far.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-4450}"
seed=dist/embedded-seed
if [ "${1:-}" = "--no-seed" ]; then
  mv "$seed" "$seed.aside"
  trap 'mv "$seed.aside" "$seed"' EXIT
fi
[ "${1:-}" = "--no-seed" ] || [ -d "$seed/pglite" ] || { echo "no $seed: run npm run build" >&2; exit 1; }

now_ms() { date +%s%3N; }

# One start: prints "ms rss_mb hwm_mb", then stops the server.
measure() {
  local data_dir="$1" started pid rss hwm elapsed
  started=$(now_ms)
  DATA_DIR="$data_dir" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn node dist/main.js >/dev/null 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:${port}/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "the server exited" >&2; exit 1; }
    sleep 0.02
  done
  elapsed=$(( $(now_ms) - started ))
  sleep 1
  rss=$(awk '/VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
  hwm=$(awk '/VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  echo "$elapsed $rss $hwm"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

first=()
restart=()
for run in 1 2 3; do
  dir=$(mktemp -d /tmp/catalog-embedded-start-XXXXXX)
  first+=("$(measure "$dir")")
  restart+=("$(measure "$dir")")
  rm -rf "$dir"
  echo "run $run: first start ${first[-1]}; restart ${restart[-1]}  (ms to healthy, RSS MB, peak RSS MB)"
done

for kind in first restart; do
  declare -n runs="$kind"
  printf '%-8s median: %s ms to healthy /health, RSS %s MB, peak RSS %s MB\n' "$kind" \
    "$(printf '%s\n' "${runs[@]}" | cut -d' ' -f1 | median)" \
    "$(printf '%s\n' "${runs[@]}" | cut -d' ' -f2 | median)" \
    "$(printf '%s\n' "${runs[@]}" | cut -d' ' -f3 | median)"
done
