#!/usr/bin/env bash
# The paper's db_bench write workloads, stock vs vLSM side by side:
# fillrandom (uniform random inserts into an empty DB), then overwrite
# (uniform random updates of those keys) on the filled DB. Each phase is its
# own db_bench_vlsm run with its own metrics report.
#
# Environment: VLSM_BENCH_KEYS (default 10000000 keys of 16 + 200 bytes),
# VLSM_BENCH_DIR (default build/bench/fill; not tmpfs: direct I/O),
# VLSM_BENCH_VLSM_FLAGS (extra vLSM flags, see lib.sh), VLSM_JOBS.
# Output: <dir>/<system>-<phase>.{json,out,err,time,machine.json}, the table
# on stdout and <dir>/summary.json.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
. "$VLSM_ROOT/scripts/lib/deps.sh"
. "$VLSM_ROOT/scripts/bench/lib.sh"

keys=${VLSM_BENCH_KEYS:-10000000}
out=${VLSM_BENCH_DIR:-$VLSM_ROOT/build/bench/fill}
require_positive_int VLSM_BENCH_KEYS "$keys"

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
vlsm_bench_build
runs=()
for system in stock vlsm; do
  db="$out/$system-db"
  rm -rf "$db"
  vlsm_bench_run "$out" "$system-fillrandom" "$system" --benchmarks=fillrandom,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db"
  vlsm_bench_run "$out" "$system-overwrite" "$system" --benchmarks=overwrite,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db" --use_existing_db=1
  rm -rf "$db"
  runs+=("$system-fillrandom=$out/$system-fillrandom.json"
         "$system-overwrite=$out/$system-overwrite.json")
done
echo
echo "== fillrandom then overwrite, $keys keys (16 B keys, 200 B values), uniform"
python3 "$VLSM_ROOT/scripts/bench/summarize.py" --json "$out/summary.json" "${runs[@]}"
