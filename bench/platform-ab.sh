#!/usr/bin/env bash
# Two built checkouts, each on a Node of its own, in one sitting at full scale: the 1.3M ingest into a
# new database (wall time and the CLI's peak RSS), then the search latency classes on a fresh server
# per run (bench/search-latency.ts, cold p95 of each class, the median of its rounds). Runs alternate
# between the two, so both see the same machine load; the first embedded start compares with
# `bench/embedded-start.sh --against` (AGAINST_NODE), the cached lookup with `bench/ab-lookup.ts --node`.
#   bash bench/platform-ab.sh <label>=<checkout>:<node binary> <label>=<checkout>:<node binary>
# RUNS (default 3); each checkout built first (`npm run build` there); the catalog is generated as
# bench/ingest.sh does (~1.2 GB in bench/out). Needs PostgreSQL on 127.0.0.1:5432; leaves one database
# per label (platform_ab_<label>) until the end, then drops it. Per-run output: bench/out/platform-ab/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { sed -n '2,9p' "$0" >&2; exit 2; }

runs="${RUNS:-3}"
rows=1860000
catalog="bench/out/catalog-${rows}"
out=bench/out/platform-ab
admin="postgres://postgres@127.0.0.1:5432/postgres"
mkdir -p "${out}"
root=$PWD

labels=()
declare -A checkout node
for arg in "$@"; do
  label="${arg%%=*}"
  spec="${arg#*=}"
  labels+=("${label}")
  checkout[${label}]=$(cd "${spec%%:*}" && pwd)
  node[${label}]="${spec#*:}"
  [ -f "${checkout[${label}]}/dist/cli.js" ] || { echo "no ${checkout[${label}]}/dist/cli.js: build it first" >&2; exit 1; }
  echo "${label}: $(git -C "${checkout[${label}]}" rev-parse --short HEAD) on Node $("${node[${label}]}" --version)"
done
database_url() { echo "postgres://postgres@127.0.0.1:5432/platform_ab_$1"; }

[ -f "${catalog}/enrichment.ndjson" ] ||
  npx ts-node --transpile-only bench/generate-catalog.ts --titles "${rows}" --out "${catalog}"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

echo "== ingest of ${catalog} into a new database, ${runs} runs each, alternated"
for run in $(seq 1 "${runs}"); do
  for label in "${labels[@]}"; do
    db="platform_ab_${label}"
    psql "${admin}" -qc "DROP DATABASE IF EXISTS ${db} WITH (FORCE)" -c "CREATE DATABASE ${db}"
    before=$(load)
    (cd "${checkout[${label}]}" && DATABASE_URL=$(database_url "${label}") LOG_LEVEL=warn \
      /usr/bin/time -f '%e %M' -o "${root}/${out}/ingest-${label}-${run}.time" "${node[${label}]}" dist/cli.js \
      catalog:ingest --basics "${root}/${catalog}/title.basics.tsv" --ratings "${root}/${catalog}/title.ratings.tsv" \
      --enrichment "${root}/${catalog}/enrichment.ndjson" --json >/dev/null)
    read -r wall rss_kb <"${out}/ingest-${label}-${run}.time"
    echo "${label} run ${run}: wall ${wall} s, peak RSS $((rss_kb / 1024)) MB (load ${before} → $(load))"
  done
done
for label in "${labels[@]}"; do
  printf '%s median: wall %s s, peak RSS %s MB\n' "${label}" \
    "$(cat "${out}"/ingest-"${label}"-*.time | cut -d' ' -f1 | median)" \
    "$(($(cat "${out}"/ingest-"${label}"-*.time | cut -d' ' -f2 | median) / 1024))"
done

echo "== search latency on a fresh server per run, ${runs} runs each, alternated"
declare -A key
for label in "${labels[@]}"; do
  key[${label}]=$(cd "${checkout[${label}]}" && DATABASE_URL=$(database_url "${label}") LOG_LEVEL=warn \
    "${node[${label}]}" dist/cli.js keys:create --name bench --rpm 1000000 --monthly-quota 1000000000 --json |
    sed 's/.*"key":"\([^"]*\)".*/\1/')
done
port=4460
server=""
trap '[ -z "${server}" ] || kill "${server}" 2>/dev/null || true' EXIT
for run in $(seq 1 "${runs}"); do
  for label in "${labels[@]}"; do
    (cd "${checkout[${label}]}" && DATABASE_URL=$(database_url "${label}") PORT=${port} HOST=127.0.0.1 \
      LOG_LEVEL=warn SHUTDOWN_GRACE_MS=0 exec "${node[${label}]}" dist/main.js >/dev/null 2>&1) &
    server=$!
    until curl -sf "http://127.0.0.1:${port}/health" >/dev/null 2>&1; do
      kill -0 "${server}" 2>/dev/null || { echo "the ${label} server exited" >&2; exit 1; }
      sleep 0.1
    done
    npx ts-node --transpile-only bench/search-latency.ts --url "http://127.0.0.1:${port}" --key "${key[${label}]}" \
      --rounds 3 >"${out}/search-${label}-${run}.txt"
    kill -TERM "${server}"
    wait "${server}" 2>/dev/null || true
    server=""
    echo "${label} run ${run}: done (load $(load))"
  done
done
echo "cold p95 ms per class (each run's median of its rounds), runs 1 / 2 / … per label:"
node -e '
  const fs = require("node:fs");
  const [out, runs, ...labels] = process.argv.slice(1);
  const table = (label, run) => Object.fromEntries(
    fs.readFileSync(`${out}/search-${label}-${run}.txt`, "utf8").split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| class")).map((l) => l.split("|").map((c) => c.trim()))
      .map((c) => [c[1], Number(c[2])]));
  const all = labels.map((label) => Array.from({ length: Number(runs) }, (_, i) => table(label, i + 1)));
  console.log(`| class | ${labels.join(" | ")} |`);
  console.log(`|---|${labels.map(() => "---").join("|")}|`);
  for (const name of Object.keys(all[0][0]))
    console.log(`| ${name} | ${all.map((tables) => tables.map((t) => t[name]).join(" / ")).join(" | ")} |`);
' "${out}" "${runs}" "${labels[@]}"

for label in "${labels[@]}"; do psql "${admin}" -qc "DROP DATABASE IF EXISTS platform_ab_${label} WITH (FORCE)"; done
